//! The serialized forms of the plain types, as archives and journals written before this
//! crate existed hold them: `--resume`, `koth merge` and `koth verify` read those back.

use crate::{bank_heist, coup, euchre};
use serde::Serialize;

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data serializes")
}

#[test]
fn euchre_types_keep_their_names() {
    let card = euchre::Card::new(euchre::Rank::Nine, euchre::Suit::Clubs);
    assert_eq!(json(&card), r#"{"rank":"Nine","suit":"Clubs"}"#);
    assert_eq!(json(&euchre::Answer::Nothing), r#""Ack""#);
    assert_eq!(json(&euchre::Answer::Pass), r#""Pass""#);
    assert_eq!(
        json(&euchre::Answer::Name(euchre::Suit::Hearts)),
        r#"{"Name":"Hearts"}"#
    );
    assert_eq!(json(&euchre::Kind::Play), r#""Play""#);
    let back: euchre::Answer = serde_json::from_str(r#""Ack""#).expect("the old name reads");
    assert_eq!(back, euchre::Answer::Nothing);
}

#[test]
fn coup_types_keep_their_names() {
    assert_eq!(json(&coup::Card::Ambassador), r#""Ambassador""#);
    assert_eq!(json(&coup::Action::ForeignAid), r#""ForeignAid""#);
}

#[test]
fn bank_heist_answers_are_snake_case() {
    let all: Vec<String> = bank_heist::Answer::ALL.iter().map(json).collect();
    assert_eq!(
        all,
        [
            r#""back_out""#,
            r#""all_in""#,
            r#""change_jobs""#,
            r#""acquire_intel""#,
            r#""buy_guard""#,
            r#""deposit""#,
            r#""withdraw""#,
            r#""double_cross""#,
            r#""finger""#,
            r#""keep""#
        ]
    );
}
