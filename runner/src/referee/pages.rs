//! What a referee tells people beside its description (`pages` in `wit/referee.wit`): its
//! protocol for bot authors and its own replay viewer, each checked once when the referee
//! is loaded and again when an archive's copy of the viewer is read.

use thiserror::Error;

/// The most bytes a protocol text or a viewer may have.
pub const MAX_PAGE_BYTES: usize = 64 << 10;

/// The file of an archive that holds its referee's viewer, when the referee has one.
pub const VIEWER_FILE: &str = "viewer.js";

/// A referee's pages: each empty when it gives none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pages {
    /// The game's protocol for bot authors, plain text.
    pub protocol: String,
    /// The game's replay viewer, JavaScript.
    pub viewer: String,
}

/// A page koth refuses.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PageError {
    /// Longer than [`MAX_PAGE_BYTES`].
    #[error("its {page} has {len} bytes (at most {MAX_PAGE_BYTES})")]
    TooLong {
        /// `protocol` or `viewer`.
        page: &'static str,
        /// Its length.
        len: usize,
    },
    /// A control character other than a line break or a tab (a terminal would act on it; a
    /// page's parser would change it, and the viewer's hash with it).
    #[error("its {page} holds the control character U+{code:04X} at byte {at} (only `\\n` and tab are allowed)")]
    Control {
        /// `protocol` or `viewer`.
        page: &'static str,
        /// The character.
        code: u32,
        /// Where.
        at: usize,
    },
    /// A viewer holding `</script` or `<!--`, which would end or change the frame's script
    /// element.
    #[error(
        "its viewer holds `{what}` at byte {at}, which the replay's frame cannot hold in a script"
    )]
    Markup {
        /// What it holds.
        what: &'static str,
        /// Where.
        at: usize,
    },
}

impl Pages {
    /// Check both pages against the limits above.
    pub fn check(&self) -> Result<(), PageError> {
        check_text("protocol", &self.protocol)?;
        check_viewer(&self.viewer)
    }
}

/// Check a viewer (from a referee or from an archive's [`VIEWER_FILE`]).
pub fn check_viewer(viewer: &str) -> Result<(), PageError> {
    check_text("viewer", viewer)?;
    let lower = viewer.to_ascii_lowercase();
    for what in ["</script", "<!--"] {
        if let Some(at) = lower.find(what) {
            return Err(PageError::Markup { what, at });
        }
    }
    Ok(())
}

fn check_text(page: &'static str, text: &str) -> Result<(), PageError> {
    if text.len() > MAX_PAGE_BYTES {
        return Err(PageError::TooLong {
            page,
            len: text.len(),
        });
    }
    match text
        .char_indices()
        .find(|&(_, c)| c.is_control() && c != '\n' && c != '\t')
    {
        Some((at, c)) => Err(PageError::Control {
            page,
            code: c as u32,
            at,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_within_the_limits_pass_and_others_are_named() {
        let ok = Pages {
            protocol: "# Moves\n\tEach turn: `C` or `D`.\n".into(),
            viewer: "addEventListener('message', e => { document.body.textContent = e.data; });"
                .into(),
        };
        assert_eq!(ok.check(), Ok(()));
        assert_eq!(Pages::default().check(), Ok(()));
        let long = Pages {
            protocol: "x".repeat(MAX_PAGE_BYTES + 1),
            ..Pages::default()
        };
        assert!(matches!(
            long.check(),
            Err(PageError::TooLong {
                page: "protocol",
                ..
            })
        ));
        let escape = Pages {
            protocol: "red \u{1b}[31m".into(),
            ..Pages::default()
        };
        assert_eq!(
            escape.check(),
            Err(PageError::Control {
                page: "protocol",
                code: 0x1b,
                at: 4
            })
        );
        // A carriage return would be dropped by the frame's parser, and the hash with it.
        assert!(matches!(
            check_viewer("a();\r\nb();"),
            Err(PageError::Control { code: 0x0d, .. })
        ));
        for bad in ["x = '</SCRIPT>';", "<!-- hidden"] {
            assert!(
                matches!(check_viewer(bad), Err(PageError::Markup { .. })),
                "{bad}"
            );
        }
    }
}
