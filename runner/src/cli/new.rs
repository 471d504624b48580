//! `koth new GAME LANG DIR`: write a starter bot.

use clap::Args;
use koth::scaffold::{self, Game, Lang, ScaffoldError};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct NewArgs {
    /// The game: coup, bank-heist or euchre.
    game: String,
    /// The language: rust (with koth's guest SDK), c (clang + wasi-libc), python (a plain
    /// script) or rust-component (a WASI preview-2 component of the game's typed world).
    lang: String,
    /// The new bot's folder (it must not exist, or be empty); its name names the bot.
    dir: PathBuf,
}

pub(crate) fn run(args: NewArgs) -> anyhow::Result<ExitCode> {
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
    println!("check:  koth check {dir}/{}", s.bot);
    println!("next:   {dir}/README.md (invoke one decision, play a tournament)");
    Ok(ExitCode::SUCCESS)
}
