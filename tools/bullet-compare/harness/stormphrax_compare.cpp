// Stormphrax side of tools/bullet-compare/compare.py (written for the nnue project; no
// Stormphrax code is copied here). compare.py copies this file into a build copy of Stormphrax
// (Ciekce/Stormphrax, commit 2402cae) as src/nnue_compare.cpp and builds it with the engine's
// own Makefile and flags (`make native`: clang++ -O3 -flto -march=native), with SOURCES and
// EXE overridden on make's command line so that this file replaces src/main.cpp (no engine
// file is edited). Everything NNUE below is the engine's own code: the start-up steps of its
// main() (numa::init, tunable::init, cuckoo::init, eval::init: the net embedded by INCBIN at
// build time, permuted for the target by the build's tmp/permute-<TYPE>), Position::fromFen,
// Position::moveFromUci, eval::NnueState (reset, push, pop, evaluate) and Position::applyMove
// with the NnueState's BoardObserver, as its search (ThreadData::applyMove) makes a move.
//
//   nnue_compare dump <positions>              -> "fen<TAB>output" per position
//   nnue_compare bench <moves> <runs> <ops>    -> "bench<TAB>op<TAB>ns<TAB>positions<TAB>checksum"
//
// <positions>: a file whose first tab-separated column is a FEN; blank lines and lines
// starting with '#' are skipped. <moves>: as tests/reference/timing_moves.tsv (FEN, a random
// legal move, a random non-king legal move or `-`; blank lines skipped), the file `nnue bench`
// times on. <ops>: comma-separated, from `eval`, `move`, `board`.
//
// output = NnueState::evaluate(pos, pos.stm()) after NnueState::reset(pos): the network's value
// from the side to move's point of view, before eval::staticEval's contempt (0 in `raweval`)
// and clamp to +-24999 (no value of the generated net comes near it): the reference file's
// `raweval`. `dump` also checks it against NnueState::evaluateOnce (what `raweval` runs).
//
// `bench` times Stormphrax's network doing the work of two operations of `nnue bench`
// (nnue-runtime/src/shakmaty/bench.rs), with its timing rules: per position an untimed setup,
// then the operation alone between two steady_clock readings (the state and the position made
// to escape first); the median cost of timing nothing (10001 samples) subtracted from every
// sample; one warm-up pass, then per operation the median over <runs> passes of (the pass's
// total ns / positions timed). Each position is parsed once, before timing.
//   eval:  `eval, acc. ready`. Untimed: `reset` (both perspectives' accumulators computed),
//          `evaluate` twice (the second warms the layers). Timed: `evaluate`, which finds the
//          top of the stack up to date and runs the network (pairwise activation, L1, L2, L3).
//          Every position.
//   move:  `move + eval`, with the file's non-king move (positions without one are skipped, as
//          ours skips them). Untimed: `reset` (the root's accumulators computed), then `push`,
//          `applyMove` and `pop` once without evaluating (position and stack hot; the timed
//          push finds its node uncomputed again). Timed, as the search makes a move:
//          `pos.applyMove(mv, state.push())` (copy-make: a new Position with its keys,
//          checkers, pins, threats; the observer records the piece and threat feature changes),
//          `evaluate(moved, moved.stm())` (both perspectives updated lazily from the root, then
//          the network), `pop`. Nothing to undo (copy-make). Ours times the move's piece
//          changes, a copy of the board with the move played (shakmaty), push, evaluate, pop.
//   board: not an operation of ours: `pos.applyMove(mv)` with the engine's NullObserver alone
//          (untimed: the same once), i.e. the board's part of `move`, without the network.
//          Positions as for `move`.
// Before timing, every `move` evaluation is checked against `reset` + `evaluate` of the
// position after the move (a difference: exit 1).

#include "cuckoo.h"
#include "eval/nnue.h"
#include "eval/nnue_state.h"
#include "movegen.h"
#include "position.h"
#include "tunable.h"
#include "util/numa/numa.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace stormphrax;

namespace {

[[noreturn]] void fail(const std::string& message) {
    std::fprintf(stderr, "nnue_compare: %s\n", message.c_str());
    std::exit(1);
}

int usage() {
    std::fprintf(stderr, "usage: nnue_compare dump <positions>\n"
                         "       nnue_compare bench <moves> <runs> <eval,move,board>\n");
    return 2;
}

std::vector<std::vector<std::string>> read_rows(const char* path) {
    std::ifstream in(path);
    if (!in)
        fail(std::string("cannot read ") + path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#')
            continue;
        std::vector<std::string> fields;
        for (std::size_t start = 0;;) {
            const std::size_t end = line.find('\t', start);
            fields.push_back(line.substr(start, end == std::string::npos ? std::string::npos : end - start));
            if (end == std::string::npos)
                break;
            start = end + 1;
        }
        rows.push_back(std::move(fields));
    }
    if (rows.empty())
        fail(std::string("no positions in ") + path);
    return rows;
}

Position parse(const std::string& fen) {
    const auto pos = Position::fromFen(fen);
    if (!pos)
        fail("`" + fen + "`: rejected by Position::fromFen");
    return *pos;
}

// Keeps a value alive and computed before the clock is read again.
template <typename T>
inline void keep(const T& value) {
    asm volatile("" : : "r,m"(value) : "memory");
}

// Makes `*p` escape (treated as read and written here), so that no work on it can move
// across the clock readings.
inline void escape(const void* p) {
    asm volatile("" : : "r"(p) : "memory");
}

using Clock = std::chrono::steady_clock;

template <typename F>
inline double timed(F&& f, std::int64_t& sum) {
    const auto start = Clock::now();
    const int value = f();
    keep(value);
    const auto end = Clock::now();
    sum += value;
    return double(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
}

double clock_overhead_ns() {
    std::vector<double> samples;
    std::int64_t sum = 0;
    for (int i = 0; i < 10001; ++i)
        samples.push_back(timed([] { return 0; }, sum));
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

std::unique_ptr<eval::NnueState> new_state() {
    auto state = std::make_unique<eval::NnueState>();
    state->setNetwork(eval::getNetwork(0));
    return state;
}

i32 fresh(eval::NnueState& state, const Position& pos) {
    state.reset(pos);
    return state.evaluate(pos, pos.stm());
}

int dump(const char* path) {
    auto state = new_state();
    for (const auto& row : read_rows(path)) {
        const Position pos = parse(row[0]);
        const i32 value = fresh(*state, pos);
        const i32 once = eval::NnueState::evaluateOnce(pos, pos.stm());
        if (value != once)
            fail("`" + row[0] + "`: NnueState::evaluate " + std::to_string(value) + ", evaluateOnce " +
                 std::to_string(once));
        std::printf("%s\t%d\n", row[0].c_str(), value);
    }
    return 0;
}

struct BenchPosition {
    Position pos;
    std::optional<Move> quiet;
};

std::vector<BenchPosition> bench_positions(const char* path) {
    std::vector<BenchPosition> positions;
    std::size_t line = 0;
    for (const auto& row : read_rows(path)) {
        ++line;
        if (row.size() != 3)
            fail(std::string(path) + ": row " + std::to_string(line) + ": expected 3 fields");
        BenchPosition p{parse(row[0]), std::nullopt};
        if (row[2] != "-") {
            const Move mv = p.pos.moveFromUci(row[2]);
            ScoredMoveList moves;
            generateAll(moves, p.pos);
            const bool generated =
                std::any_of(moves.begin(), moves.end(), [&](const ScoredMove& m) { return m.move == mv; });
            if (!mv || !generated || !p.pos.isLegal(mv))
                fail(std::string(path) + ": row " + std::to_string(line) + ": `" + row[2] + "` is not legal");
            p.quiet = mv;
        }
        positions.push_back(p);
    }
    return positions;
}

int bench(const char* path, int runs, const std::string& list) {
    std::vector<std::string> ops;
    for (std::size_t start = 0; start <= list.size();) {
        std::size_t end = list.find(',', start);
        if (end == std::string::npos)
            end = list.size();
        const std::string name = list.substr(start, end - start);
        if (name != "eval" && name != "move" && name != "board")
            return usage();
        ops.push_back(name);
        start = end + 1;
    }
    auto positions = bench_positions(path);
    auto state = new_state();
    auto check = new_state();
    for (const auto& p : positions) {
        if (!p.quiet)
            continue;
        state->reset(p.pos);
        const Position moved = p.pos.applyMove(*p.quiet, state->push());
        const i32 incremental = state->evaluate(moved, moved.stm());
        state->pop();
        const i32 expected = fresh(*check, moved);
        if (incremental != expected)
            fail("`" + moved.toFen() + "`: move + eval " + std::to_string(incremental) + ", full refresh " +
                 std::to_string(expected));
    }

    const double overhead = clock_overhead_ns();
    eval::NnueState& net = *state;
    for (const std::string& op : ops) {
        const bool all = op == "eval";
        const std::size_t count = std::count_if(positions.begin(), positions.end(),
                                                [&](const BenchPosition& p) { return all || p.quiet; });
        std::int64_t checksum = 0;
        auto pass = [&]() {
            double total = 0;
            for (auto& p : positions) {
                const Position& pos = p.pos;
                double ns;
                if (op == "eval") {
                    net.reset(pos);
                    keep(net.evaluate(pos, pos.stm()));
                    keep(net.evaluate(pos, pos.stm()));
                    escape(&net);
                    escape(&pos);
                    ns = timed([&] { return net.evaluate(pos, pos.stm()); }, checksum);
                } else if (!p.quiet) {
                    continue;
                } else if (op == "move") {
                    const Move mv = *p.quiet;
                    net.reset(pos);
                    {
                        const Position moved = pos.applyMove(mv, net.push());
                        keep(moved);
                        net.pop();
                    }
                    escape(&net);
                    escape(&pos);
                    ns = timed(
                        [&] {
                            const Position moved = pos.applyMove(mv, net.push());
                            const i32 value = net.evaluate(moved, moved.stm());
                            net.pop();
                            return value;
                        },
                        checksum
                    );
                } else {
                    const Move mv = *p.quiet;
                    keep(pos.applyMove(mv));
                    escape(&pos);
                    ns = timed(
                        [&] {
                            const Position moved = pos.applyMove(mv);
                            keep(moved);
                            return i32(moved.halfmove());
                        },
                        checksum
                    );
                }
                total += ns - overhead;
            }
            return total / double(std::max<std::size_t>(count, 1));
        };
        pass(); // warm-up
        std::vector<double> samples;
        for (int r = 0; r < runs; ++r)
            samples.push_back(pass());
        std::sort(samples.begin(), samples.end());
        std::printf("bench\t%s\t%.1f\t%zu\t%lld\n", op.c_str(), samples[samples.size() / 2], count,
                    (long long) checksum);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

int main(int argc, const char* argv[]) {
    // The start-up steps of the engine's main().
    if (!numa::init())
        fail("numa::init failed");
    tunable::init();
    cuckoo::init();
    eval::init();
    if (!eval::isNetworkLoaded())
        fail("the embedded network did not load");

    const std::string command = argc > 1 ? argv[1] : "";
    int status;
    if (command == "dump" && argc == 3)
        status = dump(argv[2]);
    else if (command == "bench" && argc == 5)
        status = bench(argv[2], std::max(1, std::atoi(argv[3])), argv[4]);
    else
        status = usage();
    eval::shutdown();
    return status;
}
