// Shared part of the Stockfish-side harness of tools/stockfish-compare.
//
// Written for this project; compiled into a Stockfish checkout by
// compare.py (copied next to Stockfish's sources as nnue_compare_common.h).
// It only uses the C++ standard library: the Stockfish-specific parts live
// in the per-era files (harness_sf12.cpp, harness_sf16.cpp, harness_sf17.cpp,
// harness_sf18.cpp, harness_dev.cpp), which hand them to bench() and dump()
// below.
//
// Timing rules (the same as nnue-runtime/src/shakmaty/bench.rs):
// - each operation is timed per position, right after an untimed setup,
//   with std::chrono::steady_clock;
// - the setup leaves the position hot, as in a search: before a move
//   (move, kingmove, domove) the same move is made and taken back untimed;
//   before the others the Position and its StateInfo are read (touch());
// - the median cost of timing nothing (10001 samples) is subtracted from
//   every sample;
// - one untimed warm-up pass over all positions, then `runs` passes; the
//   reported figure is the median over the passes of (total ns / positions).

#ifndef NNUE_COMPARE_COMMON_H
#define NNUE_COMPARE_COMMON_H

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace nnue_cmp {

enum class Op {
    Refresh,
    RefreshHot,
    Eval,
    Forward,
    Move,
    KingMove,  // a king move: the mover's perspective refreshed
    DoMove  // diagnostic: Stockfish's own move making alone (no nnue counterpart)
};

struct OpInfo {
    Op          op;
    const char* key;
};

inline const OpInfo kOps[] = {{Op::Refresh, "refresh"},
                              {Op::RefreshHot, "refresh_hot"},
                              {Op::Eval, "eval"},
                              {Op::Forward, "forward"},
                              {Op::Move, "move"},
                              {Op::KingMove, "kingmove"},
                              {Op::DoMove, "domove"}};

// One row of timing_moves.tsv: FEN, a random legal move, a random non-king
// legal move ("-" when there is none).
struct MoveRow {
    std::string fen, legal, quiet;
};

inline std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> out;
    std::string              cell;
    std::istringstream       ss(line);
    while (std::getline(ss, cell, '\t'))
        out.push_back(cell);
    return out;
}

inline bool blank(const std::string& line) {
    return line.find_first_not_of(" \t\r\n") == std::string::npos;
}

inline bool read_moves(const std::string& path, std::vector<MoveRow>& rows) {
    std::ifstream in(path);
    if (!in)
        return false;
    std::string line;
    while (std::getline(in, line))
    {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (blank(line))
            continue;
        auto f = split_tabs(line);
        if (f.size() != 3)
            return false;
        rows.push_back({f[0], f[1], f[2]});
    }
    return true;
}

// fens.txt: one FEN a line; blank lines and lines starting with '#' skipped.
inline bool read_fens(const std::string& path, std::vector<std::string>& fens) {
    std::ifstream in(path);
    if (!in)
        return false;
    std::string line;
    while (std::getline(in, line))
    {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (blank(line) || line[0] == '#')
            continue;
        fens.push_back(line);
    }
    return true;
}

// Parses "refresh,eval,..." (or "all") into operations; false on an unknown name.
inline bool parse_ops(const std::string& list, bool has_refresh_cache, std::vector<Op>& ops) {
    if (list == "all")
    {
        for (const auto& o : kOps)
            if (o.op != Op::RefreshHot || has_refresh_cache)
                ops.push_back(o.op);
        return true;
    }
    std::istringstream ss(list);
    std::string        name;
    while (std::getline(ss, name, ','))
    {
        bool found = false;
        for (const auto& o : kOps)
            if (name == o.key)
            {
                ops.push_back(o.op);
                found = true;
            }
        if (!found)
            return false;
    }
    return true;
}

inline const char* op_key(Op op) {
    for (const auto& o : kOps)
        if (o.op == op)
            return o.key;
    return "?";
}

// Keeps a value alive (and computed before the clock is read again).
template<typename T>
inline void keep(const T& value) {
    asm volatile("" : : "r,m"(value) : "memory");
}

// Reads every 64-byte line of [p, p + n) (untimed: brings it into cache).
inline void touch(const void* p, std::size_t n) {
    const auto*   bytes = static_cast<const volatile unsigned char*>(p);
    std::uint64_t sum   = 0;
    for (std::size_t i = 0; i < n; i += 64)
        sum += bytes[i];
    if (n > 0)
        sum += bytes[n - 1];
    keep(sum);
}

// The king move `kingmove` times (the rule our side implements too): among
// the legal `moves`, those `is_king` accepts (the side to move's king, not
// castling), the one whose UCI string (uci(m)) is smallest; `none` if none.
template<typename Moves, typename IsKing, typename Uci, typename Move>
Move smallest_king_move(const Moves& moves, IsKing&& is_king, Uci&& uci, Move none) {
    Move        best = none;
    std::string best_uci;
    for (const auto& em : moves)
    {
        const Move m = em;
        if (!is_king(m))
            continue;
        const std::string s = uci(m);
        if (best == none || s < best_uci)
        {
            best     = m;
            best_uci = s;
        }
    }
    return best;
}

using Clock = std::chrono::steady_clock;

// Runs f() between two clock readings; returns the elapsed ns and adds the
// result to `sum` (a checksum, so that nothing can be optimised away).
template<typename F>
inline double timed(F&& f, std::int64_t& sum) {
    const auto start = Clock::now();
    const auto value = f();
    keep(value);
    const auto end = Clock::now();
    sum += std::int64_t(value);
    return double(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
}

// The median cost of timing nothing.
inline double clock_overhead_ns() {
    std::vector<double> samples;
    std::int64_t        sum = 0;
    samples.reserve(10001);
    for (int i = 0; i < 10001; ++i)
        samples.push_back(timed([] { return 0; }, sum));
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

// What one pass of an operation produced: the timed ns (clock overhead
// already subtracted), how many positions were timed, and a checksum.
struct PassResult {
    double       total_ns  = 0;
    std::size_t  positions = 0;
    std::int64_t checksum  = 0;
};

inline void fail(const std::string& message) {
    std::printf("nnue_compare_error\t%s\n", message.c_str());
    std::fflush(stdout);
}

// `nnuebench <timing_moves.tsv> <runs> <ops> [<repeat>]` (the slot already
// read from `is`): sets up the file's positions and moves, then times each
// operation in `ops` (one warm-up pass, then the median over `runs` passes of
// ns per position) and prints one line per operation:
// "nnuebench <op> <median ns> <positions> <checksum>". With `repeat` (default
// 1), move and domove make their move `repeat` times inside one timing (the
// same work each time: the stack pushed, the move made, evaluated, taken
// back): for counting their instructions (instructions.py), not for times.
//
// Position and State are the version's Position and StateInfo, `none` its
// "no move". `h` holds what differs between versions:
//   refresh_cache                  (static constexpr bool) whether refresh_hot exists;
//                                  if not, `name` (for the error message)
//   set(pos, fen, st)              sets pos from fen, with st as its state
//   to_move(pos, uci)              the move, or none
//   king_move(pos)                 the position's king move (smallest_king_move), or none
// and, per operation, the untimed setup of one position, which returns the
// work to time (a lambda returning an integer, added to the checksum):
//   refresh(pos), refresh_hot(pos) (only with refresh_cache), eval(pos),
//   forward(pos), move(pos, m, st), domove(pos, m, st) (st: a fresh state;
//   move serves kingmove too, with the king move)
// They are resolved at compile time and inline: the timed region holds the
// returned lambda's work alone. The setups end with the position hot (see the
// timing rules above), as it is in a search, and as our side has it.
template<typename Position, typename State, typename H, typename Move>
void bench(H& h, std::istream& is, Move none) {
    std::string path, ops_list;
    int         runs = 21, repeat = 1;
    is >> path >> runs >> ops_list;
    if (!(is >> repeat) || repeat < 1)
        repeat = 1;
    std::vector<MoveRow> rows;
    std::vector<Op>      ops;
    if (!read_moves(path, rows))
        return fail("cannot read " + path);
    if (!parse_ops(ops_list.empty() ? "all" : ops_list, H::refresh_cache, ops))
        return fail("unknown operation in `" + ops_list + "`");
    if constexpr (!H::refresh_cache)
        for (Op op : ops)
            if (op == Op::RefreshHot)
                return fail(std::string(H::name) + " has no refresh cache (no refresh_hot)");

    // Positions set up once; every position keeps its own state. Per position
    // its king move for kingmove (positions without one are skipped, as move
    // skips those without a quiet move).
    std::deque<State>     states(rows.size());
    std::vector<Position> positions(rows.size());
    std::vector<Move>     quiet(rows.size(), none), king(rows.size(), none);
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        h.set(positions[i], rows[i].fen, states[i]);
        king[i] = h.king_move(positions[i]);
        if (rows[i].quiet != "-")
        {
            quiet[i] = h.to_move(positions[i], rows[i].quiet);
            if (quiet[i] == none)
                return fail("illegal move " + rows[i].quiet + " in " + rows[i].fen);
        }
    }
    const double clock = clock_overhead_ns();
    // f() `repeat` times, the sum of its values.
    auto repeated = [repeat](auto f) {
        return [f, repeat]() mutable {
            auto value = f();
            for (int k = 1; k < repeat; ++k)
                value += f();
            return value;
        };
    };

    // One pass of `op` over all positions.
    auto pass = [&](Op op) {
        PassResult res;
        for (std::size_t i = 0; i < positions.size(); ++i)
        {
            Position& pos = positions[i];
            double    ns  = 0;
            switch (op)
            {
            case Op::Refresh :
                ns = timed(h.refresh(pos), res.checksum);
                break;
            case Op::RefreshHot :
                if constexpr (H::refresh_cache)
                    ns = timed(h.refresh_hot(pos), res.checksum);
                break;
            case Op::Eval :
                ns = timed(h.eval(pos), res.checksum);
                break;
            case Op::Forward :
                ns = timed(h.forward(pos), res.checksum);
                break;
            case Op::Move :
            case Op::KingMove : {
                const Move m = op == Op::Move ? quiet[i] : king[i];
                if (m == none)
                    continue;
                State st;
                // `repeat` serves move alone: a king move made again finds
                // its refresh-cache entry hot, not the same work.
                ns = op == Op::Move ? timed(repeated(h.move(pos, m, st)), res.checksum)
                                    : timed(h.move(pos, m, st), res.checksum);
                break;
            }
            case Op::DoMove : {  // the move making that `move` includes, alone
                if (quiet[i] == none)
                    continue;
                State st;
                ns = timed(repeated(h.domove(pos, quiet[i], st)), res.checksum);
                break;
            }
            }
            res.total_ns += ns - clock;
            res.positions += 1;
        }
        return res;
    };

    runs = std::max(runs, 1);
    for (Op op : ops)
    {
        PassResult          warm = pass(op);
        std::vector<double> samples;
        std::int64_t        checksum = warm.checksum;
        for (int r = 0; r < runs; ++r)
        {
            PassResult p = pass(op);
            samples.push_back(p.total_ns / double(std::max<std::size_t>(p.positions, 1)));
            checksum += p.checksum;
        }
        std::sort(samples.begin(), samples.end());
        std::printf("nnuebench\t%s\t%.1f\t%zu\t%lld\n", op_key(op), samples[samples.size() / 2],
                    warm.positions, (long long) checksum);
        std::fflush(stdout);
    }
    std::printf("nnuebench\tdone\n");
    std::fflush(stdout);
}

// What nnuedump prints per position from sf_16.1 on (the reference files'
// columns): the layer-stack bucket; per bucket b the PSQT output and the
// layer stack's output; the PSQT accumulators of the side to move and of the
// other side, per bucket.
struct Outputs {
    std::int32_t bucket, psqt[8], positional[8], psqtacc_stm[8], psqtacc_nstm[8];

    static std::vector<std::string> columns() {
        std::vector<std::string> names{"bucket"};
        for (const char* col : {"psqt", "positional", "psqtacc_stm", "psqtacc_nstm"})
            for (int b = 0; b < 8; ++b)
                names.push_back(std::string(col) + "_" + std::to_string(b));
        return names;
    }
    std::vector<std::int32_t> values() const {
        std::vector<std::int32_t> v{bucket};
        for (const std::int32_t* part : {psqt, positional, psqtacc_stm, psqtacc_nstm})
            v.insert(v.end(), part, part + 8);
        return v;
    }
};

// `nnuedump <fens.txt>` (the slot already read from `is`): the header
// "fen <columns>", then per FEN of the file "<fen> <values>" with
// values = row(fen), then "nnuedump done" (tab-separated).
template<typename Row>
void dump(std::istream& is, const std::vector<std::string>& columns, Row&& row) {
    std::string path;
    is >> path;
    std::vector<std::string> fens;
    if (!read_fens(path, fens))
        return fail("cannot read " + path);
    std::printf("fen");
    for (const auto& col : columns)
        std::printf("\t%s", col.c_str());
    std::printf("\n");
    for (const auto& fen : fens)
    {
        std::printf("%s", fen.c_str());
        for (std::int32_t v : row(fen))
            std::printf("\t%d", v);
        std::printf("\n");
    }
    std::printf("nnuedump\tdone\n");
    std::fflush(stdout);
}

}  // namespace nnue_cmp

#endif  // NNUE_COMPARE_COMMON_H
