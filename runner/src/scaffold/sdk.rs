//! The guest SDK's source, embedded at build time by `runner/build.rs` (the SDK and every
//! path dependency it has), so that an installed koth can give a Rust scaffold its SDK.

/// One embedded crate.
pub struct SdkCrate {
    /// The package's name, also the folder `koth new` writes it into (`sdk/<name>/`).
    pub name: &'static str,
    /// Where its source was when koth was built (for the drift test).
    pub source: &'static str,
    /// The manifest `koth new` writes: workspace inheritance resolved, path dependencies
    /// pointed at the sibling folders.
    pub manifest: &'static str,
    /// Every file of its source tree, by path relative to the crate's folder.
    pub files: &'static [(&'static str, &'static [u8])],
}

include!(concat!(env!("OUT_DIR"), "/guest_sdk.rs"));

/// The embedded crates of the guest SDK (for a bot), the SDK first.
pub fn crates() -> &'static [SdkCrate] {
    CRATES
}

/// The files a scaffold gets for `crates`: each crate's manifest and source under
/// `sdk/<name>/`.
pub fn files(crates: &[SdkCrate]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for krate in crates {
        let folder = format!("sdk/{}", krate.name);
        out.push((
            format!("{folder}/Cargo.toml"),
            krate.manifest.as_bytes().to_vec(),
        ));
        for (path, bytes) in krate.files {
            out.push((format!("{folder}/{path}"), bytes.to_vec()));
        }
    }
    out
}

/// The embedded crates of the referee SDK (for a referee), the SDK first.
pub fn referee_crates() -> &'static [SdkCrate] {
    REFEREE_CRATES
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every file of each embedded crate's source folder, read now from the workspace, with
    /// its path relative to the crate.
    fn on_disk(krate: &Path, root: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(root).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "target" {
                continue;
            }
            if path.is_dir() {
                on_disk(krate, &path, out);
            } else {
                let rel = path
                    .strip_prefix(krate)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .to_string();
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }

    /// The embedded copy is the workspace's guest SDK, file for file: a file added, removed
    /// or changed in `guest-sdk/` (or a crate it depends on by path) without the binary being
    /// rebuilt fails here.
    #[test]
    fn the_embedded_sdk_is_the_workspace_sdk() {
        for (all, name, folder) in [
            (crates(), "koth-guest", "../guest-sdk"),
            (referee_crates(), "koth-referee", "../referee-sdk"),
        ] {
            let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
            let first = &all[0];
            assert_eq!(first.name, name);
            assert_eq!(
                Path::new(first.source).canonicalize().unwrap(),
                sdk.canonicalize().unwrap()
            );
            same_files(all);
        }
    }

    /// Each embedded crate holds its source folder's files, byte for byte.
    fn same_files(all: &[SdkCrate]) {
        for krate in all {
            let dir = Path::new(krate.source);
            let mut disk = Vec::new();
            on_disk(dir, &dir.join("src"), &mut disk);
            disk.sort();
            let mut embedded: Vec<(String, Vec<u8>)> = krate
                .files
                .iter()
                .map(|(p, b)| (p.to_string(), b.to_vec()))
                .collect();
            embedded.sort();
            let names =
                |v: &[(String, Vec<u8>)]| v.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
            assert_eq!(
                names(&embedded),
                names(&disk),
                "{}: the file lists differ",
                krate.name
            );
            for ((path, a), (_, b)) in embedded.iter().zip(&disk) {
                assert!(
                    a == b,
                    "{}/{path} differs from the embedded copy",
                    krate.name
                );
            }
            assert!(!krate.files.is_empty(), "{}", krate.name);
        }
    }

    /// The written manifest needs no workspace and names the SDK with its version, so a
    /// bot's author can tell which SDK a scaffold has.
    #[test]
    fn the_manifest_stands_alone() {
        for krate in crates().iter().chain(referee_crates()) {
            let m = krate.manifest;
            assert!(m.contains(&format!("name = \"{}\"", krate.name)), "{m}");
            assert!(m.contains("\nversion = \""), "{m}");
            assert!(!m.contains("workspace"), "{m}");
            assert!(!m.contains("[dev-dependencies]"), "{m}");
        }
    }
}
