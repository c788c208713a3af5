// Obsidian side of tools/bullet-compare (written for the nnue project; no
// Obsidian code is copied here). compare.py copies this file into a build
// copy of Obsidian (gab8192/Obsidian, commit 3d93509) as
// Obsidian/nnue_compare.cpp and compiles it with Obsidian's own sources,
// minus Obsidian/main.cpp, with Obsidian's Makefile flags. Everything NNUE
// below is Obsidian's code: Position::setToFen, NNUE::Accumulator::refresh
// and NNUE::evaluate (the net is the one Obsidian embeds with INCBIN).
//
//   nnue_compare dump  <positions>                 -> "fen<TAB>output" per position
//   nnue_compare bench <positions> <runs> <ops>    -> "bench<TAB>op<TAB>ns<TAB>positions<TAB>checksum"
//
// Built with -DNNUE_FFI and linked with tools/bullet-compare/ffi (our
// library's C entry points), it also has
//
//   nnue_compare one <positions> <runs> <net> <isa> -> "one<TAB>obsidian ns<TAB>nnue ns<TAB>positions"
//
// which times the `eval` operation below for Obsidian's NNUE::evaluate and
// for ours (nnue_ffi_evaluate, the side to move and piece count computed
// by the caller, as `nnue bench` does) by the same code: one pass of each
// in turn (which goes first alternates), after checking that both give the
// same output on every position; the median over <runs> passes of each.
//
// <positions>: a TSV whose first column is a FEN (timing_moves.tsv format, or
// a reference file); blank lines and lines starting with '#' are skipped.
// <ops>: comma-separated, from `refresh` and `eval`.
//
// output = NNUE::evaluate after refreshing both perspectives' accumulators,
// from the side to move's point of view, before the engine's 50-move scaling
// (Eval::evaluate), as the reference files are.
//
// Timing rules (those of nnue-runtime/src/shakmaty/bench.rs): per position, an
// untimed setup, then the operation alone between two steady_clock readings;
// the median cost of timing nothing (10001 samples) is subtracted from each
// sample; one warm-up pass, then the median over <runs> passes of
// (total ns / positions).
//   refresh: both accumulators from scratch (Accumulator::refresh for WHITE
//            and BLACK, as Obsidian does for its root) + NNUE::evaluate.
//   eval:    accumulators refreshed (untimed), one untimed NNUE::evaluate
//            (warms the output weights), then NNUE::evaluate timed.

#include "bitboard.h"
#include "nnue.h"
#include "position.h"
#include "zobrist.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> read_fens(const char* path, bool& ok) {
  std::vector<std::string> fens;
  std::ifstream in(path);
  ok = bool(in);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#')
      continue;
    fens.push_back(line.substr(0, line.find('\t')));
  }
  return fens;
}

// Keeps a value alive and computed before the clock is read again.
template <typename T>
inline void keep(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

// Makes `*p` escape (and be treated as read and written here), so that the
// work on it cannot be moved across the clock readings.
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

NNUE::Accumulator accumulator;

inline int refresh_and_evaluate(Position& pos) {
  accumulator.refresh(pos, WHITE);
  accumulator.refresh(pos, BLACK);
  return NNUE::evaluate(accumulator, pos);
}

#ifdef NNUE_FFI
extern "C" {
struct NnueHandle;
NnueHandle* nnue_ffi_load(const char* path, const char* isa);
int nnue_ffi_refresh(NnueHandle* handle, const char* fen);
int nnue_ffi_evaluate(const NnueHandle* handle, int white_to_move, int pieces);
}

int one_harness(const std::vector<std::string>& fens, std::vector<Position>& positions, int runs, const char* net,
                const char* isa) {
  NnueHandle* ours = nnue_ffi_load(net, isa);
  if (!ours)
    return 1;
  auto white = [](const Position& pos) { return pos.sideToMove == WHITE ? 1 : 0; };
  auto pieces = [](const Position& pos) { return BitCount(pos.pieces()); };
  for (std::size_t i = 0; i < fens.size(); ++i) {
    if (nnue_ffi_refresh(ours, fens[i].c_str()) != 0) {
      std::fprintf(stderr, "nnue_compare: our library rejects %s\n", fens[i].c_str());
      return 1;
    }
    accumulator.refresh(positions[i], WHITE);
    accumulator.refresh(positions[i], BLACK);
    const int theirs = NNUE::evaluate(accumulator, positions[i]);
    const int mine = nnue_ffi_evaluate(ours, white(positions[i]), pieces(positions[i]));
    if (theirs != mine) {
      std::fprintf(stderr, "nnue_compare: %s: Obsidian %d, ours %d\n", fens[i].c_str(), theirs, mine);
      return 1;
    }
  }
  const double overhead = clock_overhead_ns();
  std::int64_t checksum = 0;
  auto obsidian_pass = [&]() {
    double total = 0;
    for (Position& pos : positions) {
      escape(&pos);
      escape(&accumulator);
      accumulator.refresh(pos, WHITE);
      accumulator.refresh(pos, BLACK);
      keep(NNUE::evaluate(accumulator, pos));
      escape(&accumulator);
      total += timed([&] { return int(NNUE::evaluate(accumulator, pos)); }, checksum) - overhead;
    }
    return total / double(positions.size());
  };
  auto ours_pass = [&]() {
    double total = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      nnue_ffi_refresh(ours, fens[i].c_str());
      const int side = white(positions[i]), count = pieces(positions[i]);
      keep(nnue_ffi_evaluate(ours, side, count));
      total += timed([&] { return nnue_ffi_evaluate(ours, side, count); }, checksum) - overhead;
    }
    return total / double(positions.size());
  };
  obsidian_pass();  // warm-up
  ours_pass();
  std::vector<double> theirs, mine;
  for (int r = 0; r < runs; ++r) {
    if (r % 2 == 0) {
      theirs.push_back(obsidian_pass());
      mine.push_back(ours_pass());
    } else {
      mine.push_back(ours_pass());
      theirs.push_back(obsidian_pass());
    }
  }
  std::sort(theirs.begin(), theirs.end());
  std::sort(mine.begin(), mine.end());
  std::printf("one\t%.1f\t%.1f\t%zu\t%lld\n", theirs[theirs.size() / 2], mine[mine.size() / 2], positions.size(),
              (long long) checksum);
  return 0;
}
#endif

int usage() {
  std::fprintf(stderr, "usage: nnue_compare dump <positions> | bench <positions> <runs> <refresh,eval>\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3)
    return usage();
  const std::string command = argv[1];

  // The engine's own start-up steps that setToFen and the net depend on.
  Zobrist::init();
  Bitboards::init();
  positionInit();
  NNUE::init();

  bool ok = false;
  const std::vector<std::string> fens = read_fens(argv[2], ok);
  if (!ok || fens.empty()) {
    std::fprintf(stderr, "nnue_compare: cannot read positions from %s\n", argv[2]);
    return 1;
  }
  std::vector<Position> positions(fens.size());
  for (std::size_t i = 0; i < fens.size(); ++i)
    positions[i].setToFen(fens[i]);

  if (command == "dump") {
    for (std::size_t i = 0; i < fens.size(); ++i)
      std::printf("%s\t%d\n", fens[i].c_str(), refresh_and_evaluate(positions[i]));
    return 0;
  }
#ifdef NNUE_FFI
  if (command == "one" && argc >= 6)
    return one_harness(fens, positions, std::max(1, std::atoi(argv[3])), argv[4], argv[5]);
#endif
  if (command != "bench" || argc < 5)
    return usage();

  const int runs = std::max(1, std::atoi(argv[3]));
  std::vector<std::string> ops;
  {
    std::string list = argv[4], name;
    for (std::size_t start = 0; start <= list.size();) {
      std::size_t end = list.find(',', start);
      if (end == std::string::npos)
        end = list.size();
      name = list.substr(start, end - start);
      if (name != "refresh" && name != "eval") {
        std::fprintf(stderr, "nnue_compare: unknown operation `%s`\n", name.c_str());
        return 2;
      }
      ops.push_back(name);
      start = end + 1;
    }
  }

  const double overhead = clock_overhead_ns();
  for (const std::string& op : ops) {
    const bool refresh = op == "refresh";
    auto pass = [&](std::int64_t& sum) {
      double total = 0;
      for (Position& pos : positions) {
        escape(&pos);
        escape(&accumulator);
        double ns;
        if (refresh)
          ns = timed([&] { return refresh_and_evaluate(pos); }, sum);
        else {
          accumulator.refresh(pos, WHITE);
          accumulator.refresh(pos, BLACK);
          keep(NNUE::evaluate(accumulator, pos));
          escape(&accumulator);
          ns = timed([&] { return int(NNUE::evaluate(accumulator, pos)); }, sum);
        }
        total += ns - overhead;
      }
      return total / double(positions.size());
    };
    std::int64_t checksum = 0;
    pass(checksum);  // warm-up
    std::vector<double> samples;
    for (int r = 0; r < runs; ++r)
      samples.push_back(pass(checksum));
    std::sort(samples.begin(), samples.end());
    std::printf("bench\t%s\t%.1f\t%zu\t%lld\n", op.c_str(), samples[samples.size() / 2], positions.size(),
                (long long) checksum);
    std::fflush(stdout);
  }
  return 0;
}
