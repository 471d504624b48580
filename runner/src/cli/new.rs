//! `koth new GAME LANG DIR`: write a starter bot.

use clap::Args;
use koth::scaffold::{self, Game, Lang, ScaffoldError};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct NewArgs {
    /// The game: coup, bank-heist or euchre; or `referee` for a game of your own (a referee
    /// in Python or Rust, with three bots to play it).
    game: String,
    /// The language: rust (with koth's guest SDK), c (clang + wasi-libc), python (a plain
    /// script) or rust-component (a WASI preview-2 component of the game's typed world).
    lang: String,
    /// The new bot's folder (it must not exist, or be empty); its name names the bot.
    dir: PathBuf,
}

pub(crate) fn run(args: NewArgs) -> anyhow::Result<ExitCode> {
    if args.game == "referee" {
        return referee(args);
    }
    let game = Game::from_name(&args.game).ok_or(ScaffoldError::UnknownGame(args.game))?;
    let lang = Lang::from_name(&args.lang).ok_or(ScaffoldError::UnknownLang(args.lang))?;
    let s = scaffold::write(game, lang, &args.dir)?;
    let dir = args.dir.display();
    println!(
        "wrote {dir}/: a {} bot named `{}` in {} ({} files)",
        game.title(),
        s.name,
        lang.name(),
        s.files.len()
    );
    match &s.build {
        Some(build) => println!("build:  cd {dir} && {build}"),
        None => println!("setup:  koth setup python   (once per machine)"),
    }
    println!("check:  koth check --game {} {dir}/{}", game.name(), s.bot);
    println!("next:   {dir}/README.md (invoke one decision, play a tournament)");
    Ok(ExitCode::SUCCESS)
}

/// `koth new referee python|rust DIR`.
fn referee(args: NewArgs) -> anyhow::Result<ExitCode> {
    let lang = scaffold::referee::RefereeLang::from_name(&args.lang)
        .ok_or(ScaffoldError::RefereeLang(args.lang))?;
    let s = scaffold::referee::write(&args.dir, lang)?;
    let dir = args.dir.display();
    let language = match lang {
        scaffold::referee::RefereeLang::Python => "Python",
        scaffold::referee::RefereeLang::Rust => "Rust",
    };
    println!(
        "wrote {dir}/: the game `{}`, its referee in {language} with three bots ({} files)",
        s.game,
        s.files.len()
    );
    println!("build:  cd {dir} && {}", s.build);
    println!("check:  koth check {dir}/{}", s.referee);
    println!("play:   koth play {dir}/{} {dir}/bots/*.py", s.referee);
    println!("next:   {dir}/README.md (the protocol, the options, making it your game)");
    Ok(ExitCode::SUCCESS)
}
