//! Bounds-checked access to guest linear memory. Every pointer a guest passes goes through
//! here; anything out of bounds is `EFAULT`, never a host panic.

use crate::sandbox::errno::Errno;

/// The guest's linear memory for the duration of one host call.
pub(crate) struct Mem<'a>(pub &'a mut [u8]);

fn range(ptr: u32, len: u32, size: usize) -> Result<std::ops::Range<usize>, Errno> {
    let start = ptr as usize;
    let end = start.checked_add(len as usize).ok_or(Errno::Fault)?;
    if end > size {
        return Err(Errno::Fault);
    }
    Ok(start..end)
}

impl Mem<'_> {
    pub fn slice(&self, ptr: u32, len: u32) -> Result<&[u8], Errno> {
        let r = range(ptr, len, self.0.len())?;
        Ok(&self.0[r])
    }

    pub fn slice_mut(&mut self, ptr: u32, len: u32) -> Result<&mut [u8], Errno> {
        let r = range(ptr, len, self.0.len())?;
        Ok(&mut self.0[r])
    }

    pub fn write(&mut self, ptr: u32, bytes: &[u8]) -> Result<(), Errno> {
        self.slice_mut(ptr, bytes.len() as u32)?
            .copy_from_slice(bytes);
        Ok(())
    }

    pub fn write_u32(&mut self, ptr: u32, v: u32) -> Result<(), Errno> {
        self.write(ptr, &v.to_le_bytes())
    }

    pub fn write_u64(&mut self, ptr: u32, v: u64) -> Result<(), Errno> {
        self.write(ptr, &v.to_le_bytes())
    }

    /// The (pointer, length) pairs of an iovec array, checked against `max` entries.
    pub fn iovecs(&self, ptr: u32, count: u32) -> Result<Iovecs, Errno> {
        if count > super::abi::MAX_IOVECS {
            return Err(Errno::Inval);
        }
        let raw = self.slice(ptr, count.checked_mul(8).ok_or(Errno::Fault)?)?;
        let pairs = raw.chunks_exact(8).map(|c| {
            let p = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            let l = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
            (p, l)
        });
        let mut list = Iovecs {
            inline: [(0, 0); INLINE_IOVECS],
            len: raw.len() / 8,
            spilled: Vec::new(),
        };
        if list.len <= INLINE_IOVECS {
            list.inline
                .iter_mut()
                .zip(pairs)
                .for_each(|(slot, v)| *slot = v);
        } else {
            list.spilled = pairs.collect();
        }
        Ok(list)
    }
}

/// Iovecs a read or write holds without allocating: programs pass one to three.
const INLINE_IOVECS: usize = 8;

/// An iovec array copied out of guest memory (the guest may pass the same memory as a
/// buffer), read as a slice of (pointer, length) pairs.
pub(crate) struct Iovecs {
    inline: [(u32, u32); INLINE_IOVECS],
    len: usize,
    /// All of them, when there are more than fit inline.
    spilled: Vec<(u32, u32)>,
}

impl std::ops::Deref for Iovecs {
    type Target = [(u32, u32)];

    fn deref(&self) -> &[(u32, u32)] {
        match self.inline.get(..self.len) {
            Some(list) => list,
            None => &self.spilled,
        }
    }
}
