// Shared part of the Stockfish-side harness of tools/stockfish-compare.
//
// Written for this project; compiled into a Stockfish checkout by
// compare.py (copied next to Stockfish's sources as nnue_compare_common.h).
// It only uses the C++ standard library: the Stockfish-specific parts live
// in the per-era files (harness_sf12.cpp, harness_sf16.cpp, harness_sf17.cpp).
//
// Timing rules (the same as nnue-runtime/src/shakmaty/bench.rs):
// - each operation is timed per position, right after an untimed setup,
//   with std::chrono::steady_clock;
// - the median cost of timing nothing (10001 samples) is subtracted from
//   every sample;
// - one untimed warm-up pass over all positions, then `runs` passes; the
//   reported figure is the median over the passes of (total ns / positions).

#ifndef NNUE_COMPARE_COMMON_H
#define NNUE_COMPARE_COMMON_H

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
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

// Times every operation in `ops` with `pass(op)` (one warm-up pass, then the
// median over `runs` passes of ns per position) and prints one line per
// operation: "nnuebench <op> <median ns> <positions> <checksum>".
template<typename Pass>
void run_bench(const std::vector<Op>& ops, int runs, Pass&& pass) {
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

inline void fail(const std::string& message) {
    std::printf("nnue_compare_error\t%s\n", message.c_str());
    std::fflush(stdout);
}

}  // namespace nnue_cmp

#endif  // NNUE_COMPARE_COMMON_H
