//! coup_zig: a tax-first honest Coup bot in Zig (0.14.1, pinned: the std API moves between
//! releases), built with
//!
//!     python3 -m ziglang build-exe -target wasm32-wasi -O ReleaseSmall -fstrip -femit-bin=coup_zig.wasm coup_zig.zig
//!
//! Protocol: argv[1] the history file (in the current directory), argv[2] the opponent's coins,
//! argv[3] ours, argv[4] our cards as reveal symbols `~^*!$` (n + 2 of them when we finish an
//! Exchange: then we print the n we keep on stdout), argv[5..] the legal actions. We append
//! exactly one of them, copied from argv, to the history file.
//!
//! Strategy: the Duke's Tax is its engine. It claims and blocks only with cards it holds, Coups
//! at 7+, Taxes before it Assassinates or Steals, challenges only a claim the visible cards
//! prove false (or an Assassination that would take its last card anyway), and when it has
//! no Duke it Exchanges with an Ambassador to look for one.

const std = @import("std");

const Card = enum(u3) { ambassador, assassin, captain, contessa, duke };
const reveal = "~^*!$";
const lose = "_'<=0";
/// How much it wants to keep each card: Duke, then Assassin, Captain, Contessa, Ambassador.
const value = [5]u8{ 1, 4, 3, 2, 5 };

fn cardOf(symbols: []const u8, c: u8) ?Card {
    const i = std.mem.indexOfScalar(u8, symbols, c) orelse return null;
    return @enumFromInt(i);
}

/// The card an action (uppercase) or a block (lowercase) claims.
fn claimed(c: u8) ?Card {
    return switch (c) {
        'E', 'a' => .ambassador,
        'A' => .assassin,
        'S', 'c' => .captain,
        's' => .contessa,
        'T', 'd' => .duke,
        else => null,
    };
}

const Game = struct {
    legal: []const []const u8,
    my_coins: u32,
    hand: [5]u8 = .{0} ** 5,
    hand_size: usize = 0,
    /// Cards given up by either player: face up for the rest of the game.
    gone: [5]u8 = .{0} ** 5,
    last: u8,

    fn has(g: *const Game, card: Card) bool {
        return g.hand[@intFromEnum(card)] > 0;
    }

    /// The legal action equal to `want`, if any: only these are ever written.
    fn act(g: *const Game, want: []const u8) ?[]const u8 {
        for (g.legal) |a| if (std.mem.eql(u8, a, want)) return a;
        return null;
    }

    /// All three copies of the claimed card are in our hand or face up: a lie.
    fn lying(g: *const Game, claim: u8) bool {
        const card = claimed(claim) orelse return false;
        const i = @intFromEnum(card);
        return g.hand[i] + g.gone[i] >= 3;
    }

    fn leastUseful(g: *const Game) ?[]const u8 {
        var best: ?[]const u8 = null;
        var best_value: u8 = 255;
        for (g.legal) |a| {
            const card = cardOf(lose, a[0]) orelse continue;
            if (value[@intFromEnum(card)] < best_value) {
                best = a;
                best_value = value[@intFromEnum(card)];
            }
        }
        return best;
    }

    fn turn(g: *const Game) ?[]const u8 {
        if (g.legal.len == 1) return g.legal[0]; // 10+ coins: the forced Coup
        if (g.my_coins >= 7) if (g.act("C")) |m| return m;
        if (g.has(.duke)) if (g.act("T")) |m| return m;
        if (g.has(.assassin)) if (g.act("A")) |m| return m;
        if (g.has(.captain)) if (g.act("S")) |m| return m;
        if (g.has(.ambassador)) if (g.act("E")) |m| return m;
        return g.act("I\n");
    }

    fn decide(g: *const Game) ?[]const u8 {
        return switch (g.last) {
            '\n' => g.turn(),
            'F' => g.act(if (g.has(.duke)) "d" else "p"),
            'T', 'E' => g.act(if (g.lying(g.last)) "q" else "p"),
            'S' => (if (g.has(.captain)) g.act("c") else null) orelse
                (if (g.has(.ambassador)) g.act("a") else null) orelse
                g.act(if (g.lying('S')) "q" else "p"),
            'A' => (if (g.has(.contessa)) g.act("s") else null) orelse
                (if (g.lying('A') or g.hand_size == 1) g.act("q") else null) orelse
                g.leastUseful(),
            'a', 'c', 'd', 's' => g.act(if (g.lying(g.last)) "q" else "\n"),
            'q' => if (g.legal.len == 1) g.legal[0] else g.leastUseful(),
            'C' => g.leastUseful(),
            else => if (cardOf(reveal, g.last) != null) g.leastUseful() else null,
        };
    }
};

/// Finishing an Exchange: the `keep` most valuable offered cards, two different ones when it can.
fn keepBest(offered: []const u8, keep: usize, out: []u8) []const u8 {
    var taken = [_]bool{false} ** 4;
    var n: usize = 0;
    while (n < keep) : (n += 1) {
        var best: ?usize = null;
        var best_value: i32 = -100;
        for (offered, 0..) |c, i| {
            if (i >= taken.len or taken[i]) continue;
            const card = cardOf(reveal, c) orelse continue;
            var v: i32 = value[@intFromEnum(card)];
            if (n == 1 and c == out[0]) v -= 10;
            if (v > best_value) {
                best = i;
                best_value = v;
            }
        }
        const i = best orelse break;
        taken[i] = true;
        out[n] = offered[i];
    }
    return out[0..n];
}

pub fn main() !u8 {
    var arena = std.heap.ArenaAllocator.init(std.heap.page_allocator);
    defer arena.deinit();
    const alloc = arena.allocator();

    const args = try std.process.argsAlloc(alloc);
    if (args.len < 6) {
        std.debug.print("coup_zig: expected a file, two coin counts, cards and legal actions\n", .{});
        return 1;
    }
    const legal = try alloc.alloc([]const u8, args.len - 5);
    for (args[5..], legal) |a, *l| l.* = a;

    // On WASI, cwd() is the first preopened directory: the bot's own.
    const dir = std.fs.cwd();
    const history = try dir.readFileAlloc(alloc, args[1], 1 << 20);

    const cards: []const u8 = args[4];
    var g = Game{
        .legal = legal,
        .my_coins = std.fmt.parseInt(u32, args[3], 10) catch 0,
        .last = if (history.len == 0) '\n' else history[history.len - 1],
    };
    if (cards.len <= 2) {
        for (cards) |c| if (cardOf(reveal, c)) |card| {
            g.hand[@intFromEnum(card)] += 1;
        };
        g.hand_size = cards.len;
    }
    for (history) |c| if (cardOf(lose, c)) |card| {
        g.gone[@intFromEnum(card)] += 1;
    };

    const move = g.decide() orelse legal[0]; // the first legal action is always legal

    if (cards.len > 2) {
        var buf: [2]u8 = undefined;
        try std.io.getStdOut().writeAll(keepBest(cards, cards.len - 2, &buf));
    }

    // Only this process writes the file: writing at its end appends.
    const file = try dir.openFile(args[1], .{ .mode = .write_only });
    defer file.close();
    try file.seekFromEnd(0);
    try file.writeAll(move);
    return 0;
}
