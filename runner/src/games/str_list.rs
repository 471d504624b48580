//! A list of strings kept in one buffer: what a match record holds by the dozen (the human
//! log's lines, a decision's arguments), written to JSON as an array of strings.
//!
//! A re-ranked ladder holds every match's record at once: 101,000 Coup records held 4.2 GB
//! with a `Vec<String>` per human log and per decision's argv, most of it one small allocation
//! per line or argument (and the kernel zeroing the pages they took). One buffer per list
//! takes two allocations, whatever the number of strings.

use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Strings kept end to end in one buffer, each followed by a line break (so a human log's
/// text is the buffer itself), with where each ends. Any string may be kept, line breaks
/// included: the ends, not the breaks, say where each string stops.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct StrList {
    /// Every string, each followed by `\n`.
    text: String,
    /// Where each string's `\n` ends in `text` (the next one starts there).
    ends: Vec<usize>,
}

impl StrList {
    /// An empty list.
    pub fn new() -> StrList {
        StrList::default()
    }

    /// Add `s` at the end.
    pub fn push(&mut self, s: impl AsRef<str>) {
        self.text.push_str(s.as_ref());
        self.text.push('\n');
        self.ends.push(self.text.len());
    }

    /// How many strings it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// String `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.text.get(start..end - 1)
    }

    /// The strings in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator + Clone {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// Every string, owned.
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }

    /// The strings joined by `sep`.
    pub fn join(&self, sep: &str) -> String {
        self.iter().collect::<Vec<_>>().join(sep)
    }

    /// Every string followed by a line break: the text of a log whose lines these are.
    pub fn as_lines(&self) -> &str {
        &self.text
    }

    /// The strings joined by line breaks and ended by one, as a log file holds its lines
    /// (a lone line break for an empty list, as joining and ending gives): borrowed.
    pub fn as_log(&self) -> &[u8] {
        if self.is_empty() {
            b"\n"
        } else {
            self.text.as_bytes()
        }
    }

    /// Give back the room the buffers grew past their contents.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

impl std::ops::Index<usize> for StrList {
    type Output = str;

    /// String `i`; panics past the end, as a slice does.
    fn index(&self, i: usize) -> &str {
        match self.get(i) {
            Some(s) => s,
            None => panic!("index {i} past the end of a list of {}", self.len()),
        }
    }
}

impl fmt::Debug for StrList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<S: AsRef<str>> Extend<S> for StrList {
    fn extend<I: IntoIterator<Item = S>>(&mut self, iter: I) {
        for s in iter {
            self.push(s);
        }
    }
}

impl<S: AsRef<str>> FromIterator<S> for StrList {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> StrList {
        let mut list = StrList::new();
        list.extend(iter);
        list
    }
}

impl<S: AsRef<str>> From<Vec<S>> for StrList {
    fn from(v: Vec<S>) -> StrList {
        v.into_iter().collect()
    }
}

impl<S: AsRef<str>> PartialEq<[S]> for StrList {
    fn eq(&self, other: &[S]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == b.as_ref())
    }
}

impl Serialize for StrList {
    /// As a JSON array of strings, the bytes a `Vec<String>` of the same strings gives.
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for StrList {
    /// From an array of strings, each appended to the buffer as it is read (no string of its
    /// own on the way).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<StrList, D::Error> {
        struct List;
        impl<'de> Visitor<'de> for List {
            type Value = StrList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of strings")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrList, A::Error> {
                let mut list = StrList::new();
                if let Some(n) = seq.size_hint() {
                    list.ends.reserve(n);
                }
                while seq.next_element_seed(Append(&mut list))?.is_some() {}
                list.shrink_to_fit();
                Ok(list)
            }
        }
        deserializer.deserialize_seq(List)
    }
}

/// Reads one string of the array into the list.
struct Append<'a>(&'a mut StrList);

impl<'de> DeserializeSeed<'de> for Append<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Append<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<(), E> {
        self.0.push(s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_writes_and_reads_the_json_of_a_vec_of_the_same_strings() {
        let strings = vec![
            "--- a vs. b".to_string(),
            String::new(),
            "line\nbreak inside".into(),
            "\"quoted\" \\ é \u{1}".into(),
            "\n".into(),
        ];
        let list: StrList = strings.iter().collect();
        assert_eq!(list.len(), 5);
        assert_eq!(&list, &strings[..]);
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, serde_json::to_string(&strings).unwrap());
        let back: StrList = serde_json::from_str(&json).unwrap();
        assert_eq!(back, list);
        assert_eq!(back.to_vec(), strings);
        assert_eq!(back.join("|"), strings.join("|"));
        assert_eq!(&back[2], "line\nbreak inside");
        assert_eq!(back.get(5), None);
        assert_eq!(back.iter().next_back(), Some("\n"));
        assert_eq!(format!("{back:?}"), format!("{strings:?}"));
    }

    #[test]
    fn its_text_is_the_log_each_line_ended() {
        let list: StrList = ["one", "two"].into_iter().collect();
        assert_eq!(list.as_lines(), "one\ntwo\n");
        let mut joined = list.join("\n");
        joined.push('\n');
        assert_eq!(list.as_lines(), joined);
        assert_eq!(list.as_log(), joined.as_bytes());
        assert!(StrList::new().is_empty());
        assert_eq!(StrList::new().as_lines(), "");
        assert_eq!(StrList::new().as_log(), b"\n");
    }

    #[test]
    fn anything_but_an_array_of_strings_is_refused() {
        for bad in ["[1]", "\"a\"", "[[\"a\"]]", "{}", "[\"a\", null]"] {
            assert!(serde_json::from_str::<StrList>(bad).is_err(), "{bad}");
        }
        assert!(serde_json::from_str::<StrList>("[]").unwrap().is_empty());
    }
}
