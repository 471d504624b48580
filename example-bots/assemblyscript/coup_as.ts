// coup_as: an honest, assassin-minded Coup bot in AssemblyScript (0.28, with
// @assemblyscript/wasi-shim for argv and stdout), built here with
//
//     npm ci && npx asc coup_as.ts --config ./node_modules/@assemblyscript/wasi-shim/asconfig.json -O3 --noAssert -o coup_as.wasm
//
// The shim has no file API, so the history file is read and appended to with the WASI preview 1
// calls themselves (declared below).
//
// Protocol: argv[1] the history file (in the current directory), argv[2] the opponent's coins,
// argv[3] ours, argv[4] our cards as reveal symbols `~^*!$` (n + 2 of them when we finish an
// Exchange: then we print the n we keep on stdout), argv[5..] the legal actions. We append
// exactly one of them, copied from argv, to the history file.
//
// Strategy: claims and blocks only with cards it holds; its engine is the Assassin, backed by a
// Contessa. Coups at 7+, Assassinates whenever it holds an Assassin and 3 coins, else Taxes with
// a Duke or Steals with a Captain, else takes Foreign Aid; challenges only a claim the visible
// cards prove false, or an Assassination that would take its last card anyway.

// @ts-ignore: decorator
@external("wasi_snapshot_preview1", "path_open")
declare function path_open(dirfd: u32, dirflags: u32, path: usize, path_len: usize, oflags: u32,
  rights_base: u64, rights_inheriting: u64, fdflags: u32, fd_out: usize): u32;
// @ts-ignore: decorator
@external("wasi_snapshot_preview1", "fd_prestat_get")
declare function fd_prestat_get(fd: u32, out: usize): u32;
// @ts-ignore: decorator
@external("wasi_snapshot_preview1", "fd_read")
declare function fd_read(fd: u32, iovs: usize, iovs_len: usize, nread: usize): u32;
// @ts-ignore: decorator
@external("wasi_snapshot_preview1", "fd_write")
declare function fd_write(fd: u32, iovs: usize, iovs_len: usize, nwritten: usize): u32;
// @ts-ignore: decorator
@external("wasi_snapshot_preview1", "fd_close")
declare function fd_close(fd: u32): u32;

const RIGHT_FD_READ: u64 = 2;
const RIGHT_FD_WRITE: u64 = 64;
const FDFLAG_APPEND: u32 = 1;

// Scratch for the calls' out-parameters and the one iovec: [0] fd or count, [8] iovec.
const scratch = memory.data(16);

const REVEAL = "~^*!$";
const LOSE = "_'<=0";
// Keeping order: Assassin, Duke, Contessa, Captain, Ambassador.
const VALUE: i32[] = [1, 5, 2, 3, 4];

function cardOf(symbols: string, c: string): i32 {
  return c.length == 1 ? symbols.indexOf(c) : -1;
}

// The card an action (uppercase) or a block (lowercase) claims, or -1.
function claimed(c: string): i32 {
  if (c == "E" || c == "a") return 0;
  if (c == "A") return 1;
  if (c == "S" || c == "c") return 2;
  if (c == "s") return 3;
  if (c == "T" || c == "d") return 4;
  return -1;
}

// The preopened directory the bot's files live in (the first preopen, normally fd 3).
function botDir(): u32 {
  for (let fd: u32 = 3; fd < 64; fd++) {
    if (fd_prestat_get(fd, scratch) == 0 && load<u8>(scratch) == 0) return fd;
  }
  return 3;
}

function openFile(dir: u32, name: string, rights: u64, fdflags: u32): u32 {
  const path = String.UTF8.encode(name);
  const err = path_open(dir, 0, changetype<usize>(path), path.byteLength, 0, rights, 0, fdflags, scratch);
  if (err != 0) {
    process.stderr.write("coup_as: cannot open " + name + " (errno " + err.toString() + ")\n");
    process.exit(1);
  }
  return load<u32>(scratch);
}

function readAll(fd: u32): string {
  let out = "";
  const chunk = new ArrayBuffer(4096);
  while (true) {
    store<usize>(scratch + 8, changetype<usize>(chunk));
    store<usize>(scratch + 12, chunk.byteLength);
    if (fd_read(fd, scratch + 8, 1, scratch) != 0) {
      process.stderr.write("coup_as: cannot read the history\n");
      process.exit(1);
    }
    const n = load<u32>(scratch);
    if (n == 0) break;
    out += String.UTF8.decode(chunk.slice(0, n));
  }
  return out;
}

// One write of the whole move: an appended action must arrive in one piece.
function writeAll(fd: u32, text: string): bool {
  const bytes = String.UTF8.encode(text);
  store<usize>(scratch + 8, changetype<usize>(bytes));
  store<usize>(scratch + 12, bytes.byteLength);
  return fd_write(fd, scratch + 8, 1, scratch) == 0 && load<u32>(scratch) == <u32>bytes.byteLength;
}

class Game {
  hand: i32[] = [0, 0, 0, 0, 0];
  gone: i32[] = [0, 0, 0, 0, 0]; // cards given up by either player: face up for good
  handSize: i32 = 0;
  last: string = "\n";
  constructor(public legal: string[], public myCoins: i32) {}

  has(card: i32): bool { return this.hand[card] > 0; }

  // The legal action equal to `want`, or "" when it is not legal: only these are written.
  act(want: string): string {
    for (let i = 0; i < this.legal.length; i++) if (this.legal[i] == want) return want;
    return "";
  }

  lying(claim: string): bool {
    const card = claimed(claim);
    return card >= 0 && this.hand[card] + this.gone[card] >= 3;
  }

  leastUseful(): string {
    let best = "";
    let bestValue = 100;
    for (let i = 0; i < this.legal.length; i++) {
      const card = cardOf(LOSE, this.legal[i].charAt(0));
      if (card >= 0 && VALUE[card] < bestValue) {
        best = this.legal[i];
        bestValue = VALUE[card];
      }
    }
    return best;
  }

  turn(): string {
    if (this.legal.length == 1) return this.legal[0]; // 10+ coins: the forced Coup
    let m = "";
    if (this.myCoins >= 7 && (m = this.act("C")) != "") return m;
    if (this.has(1) && (m = this.act("A")) != "") return m;
    if (this.has(4) && (m = this.act("T")) != "") return m;
    if (this.has(2) && (m = this.act("S")) != "") return m;
    if (this.has(0) && !this.has(1) && (m = this.act("E")) != "") return m; // look for an Assassin
    if ((m = this.act("F")) != "") return m;
    return this.act("I\n");
  }

  decide(): string {
    const last = this.last;
    let m = "";
    if (last == "\n") return this.turn();
    if (last == "F") return this.act(this.has(4) ? "d" : "p");
    if (last == "T" || last == "E") return this.act(this.lying(last) ? "q" : "p");
    if (last == "S") {
      if (this.has(2) && (m = this.act("c")) != "") return m;
      if (this.has(0) && (m = this.act("a")) != "") return m;
      return this.act(this.lying("S") ? "q" : "p");
    }
    if (last == "A") {
      if (this.has(3) && (m = this.act("s")) != "") return m;
      if ((this.lying("A") || this.handSize == 1) && (m = this.act("q")) != "") return m;
      return this.leastUseful();
    }
    if (last == "a" || last == "c" || last == "d" || last == "s") return this.act(this.lying(last) ? "q" : "\n");
    if (last == "q") return this.legal.length == 1 ? this.legal[0] : this.leastUseful();
    if (last == "C" || cardOf(REVEAL, last) >= 0) return this.leastUseful();
    return "";
  }
}

// Finishing an Exchange: the `keep` most valuable offered cards, two different ones when it can.
function keepBest(offered: string, keep: i32): string {
  let out = "";
  const taken: bool[] = [false, false, false, false];
  for (let k = 0; k < keep; k++) {
    let best = -1;
    let bestValue = -100;
    for (let i = 0; i < offered.length && i < 4; i++) {
      const card = cardOf(REVEAL, offered.charAt(i));
      if (taken[i] || card < 0) continue;
      const v = VALUE[card] - (k == 1 && offered.charAt(i) == out ? 10 : 0);
      if (v > bestValue) {
        best = i;
        bestValue = v;
      }
    }
    if (best < 0) break;
    taken[best] = true;
    out += offered.charAt(best);
  }
  return out;
}

const argv = process.argv;
if (argv.length < 6) {
  process.stderr.write("coup_as: expected a file, two coin counts, cards and legal actions\n");
  process.exit(1);
}
const dir = botDir();
const readFd = openFile(dir, argv[1], RIGHT_FD_READ, 0);
const history = readAll(readFd);
fd_close(readFd);

const game = new Game(argv.slice(5), I32.parseInt(argv[3]));
const cards = argv[4];
if (cards.length <= 2) {
  for (let i = 0; i < cards.length; i++) {
    const card = cardOf(REVEAL, cards.charAt(i));
    if (card >= 0) game.hand[card]++;
  }
  game.handSize = cards.length;
}
for (let i = 0; i < history.length; i++) {
  const card = cardOf(LOSE, history.charAt(i));
  if (card >= 0) game.gone[card]++;
}
if (history.length > 0) game.last = history.charAt(history.length - 1);

let move = game.decide();
if (move == "") move = argv[5]; // the first legal action is always legal

if (cards.length > 2) process.stdout.write(keepBest(cards, cards.length - 2));

const appendFd = openFile(dir, argv[1], RIGHT_FD_WRITE, FDFLAG_APPEND);
if (!writeAll(appendFd, move)) {
  process.stderr.write("coup_as: cannot append to the history\n");
  process.exit(1);
}
fd_close(appendFd);
