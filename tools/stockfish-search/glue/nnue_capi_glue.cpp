// tools/stockfish-search (nnue): see nnue_capi_glue.h. Written for this project; no Stockfish
// code is copied.

#include "nnue_capi_glue.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>

#include "evaluate.h"
#include "nnue/network.h"
#include "nnue/nnue_accumulator.h"
#include "position.h"
#include "ucioption.h"

// The default nets as Stockfish embeds them (incbin's symbols, C linkage): the library loads the
// very bytes Stockfish's own networks are read from.
extern "C" {
extern const unsigned char gEmbeddedNNUEBigData[];
extern const unsigned int  gEmbeddedNNUEBigSize;
extern const unsigned char gEmbeddedNNUESmallData[];
extern const unsigned int  gEmbeddedNNUESmallSize;
}

using namespace Stockfish;
using Eval::NNUE::AccumulatorCaches;
using Eval::NNUE::AccumulatorStack;
using Eval::NNUE::Networks;

namespace nnue_capi {
namespace {

[[noreturn]] void fail(const char* what, int code) {
    std::fprintf(stderr, "nnue-capi: %s failed: %s (%s)\n", what, nnue_error_message(code),
                 nnue_last_error());
    std::abort();
}

// The backend that goes with Stockfish's ARCH; NNUE_ISA in the environment overrides it.
const char* isa_of_build() {
    if (std::getenv("NNUE_ISA"))
        return nullptr;
#if defined(USE_AVX512) && defined(USE_VNNI)
    return "avx512-vnni";
#elif defined(USE_AVXVNNI)
    return "avx-vnni";
#elif defined(USE_AVX512)
    return "avx512";
#elif defined(USE_AVX2)
    return "avx2";
#else
    return nullptr;
#endif
}

const nnue_net* load(const char* which, const unsigned char* data, unsigned int size) {
    const nnue_net* net = nullptr;
    if (int rc = nnue_net_load_memory(data, size, nullptr, isa_of_build(), 0, &net))
        fail(which, rc);
    const char *arch = "?", *isa = "?";
    nnue_net_arch_name(net, &arch);
    nnue_net_isa_name(net, &isa);
    std::fprintf(stderr, "nnue-capi: %s net (embedded, %u bytes): %s on %s\n", which, size, arch,
                 isa);
    return net;
}

// Loaded before main(), so that no search (and no bench timing) pays for it.
struct Nets {
    const nnue_net* big;
    const nnue_net* small;
    Nets() :
        big(load("big", gEmbeddedNNUEBigData, gEmbeddedNNUEBigSize)),
        small(load("small", gEmbeddedNNUESmallData, gEmbeddedNNUESmallSize)) {}
    ~Nets() {
        nnue_net_release(big);
        nnue_net_release(small);
    }
} nets;

// Stockfish's piece codes (W_PAWN = 1 .. W_KING = 6, B_PAWN = 9 .. B_KING = 14) to the API's.
inline uint8_t piece_code(Piece pc) { return uint8_t(6 * (pc >> 3) + (pc & 7) - 1); }

void reset_stacks(Stacks& s, const Position& pos) {
    nnue_piece pieces[NNUE_MAX_PIECES];
    size_t     n = 0;
    for (Square sq = SQ_A1; sq <= SQ_H8; ++sq)
        if (Piece pc = pos.piece_on(sq); pc != NO_PIECE && n < NNUE_MAX_PIECES)
            pieces[n++] = {uint8_t(sq), piece_code(pc)};
    if (int rc = nnue_stack_reset(s.both, pieces, n))
        fail("nnue_stack_reset", rc);
    s.synced = true;
#ifdef NNUE_CAPI_CHECK
    s.rootFen = pos.fen();
    s.ply     = 0;
#endif
}

#ifdef NNUE_CAPI_CHECK
// Per net (big, small): evaluations where the library equals Stockfish; where Stockfish's value
// (from its incrementally updated accumulators) differs from its own evaluation of the position
// from scratch, which the library equals.
std::atomic<uint64_t> equal[2], selfDiffers[2];
constexpr uint64_t    Listed = 10;  // such cases printed in full

struct CheckReport {
    ~CheckReport() {
        std::fprintf(stderr,
                     "nnue-capi check: big net: %llu evaluations equal, %llu where Stockfish's "
                     "differs from its own from scratch (the library's); small net: %llu equal, "
                     "%llu where Stockfish's differs from its own from scratch; none different "
                     "from Stockfish's from scratch\n",
                     (unsigned long long) equal[0].load(),
                     (unsigned long long) selfDiffers[0].load(),
                     (unsigned long long) equal[1].load(),
                     (unsigned long long) selfDiffers[1].load());
    }
} checkReport;
#endif

// Net 0 is the big net, net 1 the small one (as Stacks() makes the stack).
std::pair<Value, Value> evaluate(size_t net, const Position& pos, Stacks& s) {
    if (!s.synced)
        reset_stacks(s, pos);
    nnue_eval e;
    if (int rc = nnue_stack_evaluate_net(s.both, net, pos.side_to_move(), &e))
        fail("nnue_stack_evaluate_net", rc);
    return {Value(e.psqt / Eval::NNUE::OutputScale),
            Value(e.positional / Eval::NNUE::OutputScale)};
}

#ifdef NNUE_CAPI_CHECK
// A move as UCI writes it, from what do_move recorded of it.
std::string uci(const DirtyPiece& dp) {
    auto name = [](Square s) {
        return std::string{char('a' + int(s) % 8), char('1' + int(s) / 8)};
    };
    Square      to    = dp.to != SQ_NONE ? dp.to : dp.add_sq;
    std::string promo = dp.to == SQ_NONE ? std::string(1, " pnbrqk"[dp.add_pc & 7]) : "";
    return name(dp.from) + name(to) + promo;
}

// Compares the library's values with Stockfish's, and returns Stockfish's (so that the check
// build searches exactly as the unchanged engine). A difference is looked at again against
// Stockfish's evaluation of the position from scratch (a new stack and caches): if the library
// equals that, Stockfish's accumulators differed from its own definition (counted, the first
// ones printed); otherwise the library is wrong: abort.
template<typename Net, typename Cache>
std::pair<Value, Value> check(const char*              net,
                              int                      index,
                              const Position&          pos,
                              const Stacks&            s,
                              std::pair<Value, Value>  ours,
                              std::tuple<Value, Value> theirs,
                              const Net&               network,
                              Cache AccumulatorCaches::*cache,
                              const Networks&          networks) {
    std::pair<Value, Value> sf{std::get<0>(theirs), std::get<1>(theirs)};
    if (ours == sf)
    {
        equal[index].fetch_add(1, std::memory_order_relaxed);
        return sf;
    }
    auto                    fresh       = std::make_unique<AccumulatorStack>();
    auto                    freshCaches = std::make_unique<AccumulatorCaches>(networks);
    auto [fp, fq]                       = network.evaluate(pos, *fresh, (*freshCaches).*cache);
    std::pair<Value, Value> scratch{fp, fq};
    std::string             moves;
    for (int i = 0; i < s.ply && i < int(std::size(s.moves)); ++i)
        moves += " " + uci(s.moves[i]);
    bool     selfDiff = ours == scratch;
    uint64_t n        = selfDiff ? selfDiffers[index].fetch_add(1) : 0;
    if (!selfDiff || n < Listed)
        std::fprintf(stderr,
                     "nnue-capi check: %s (%s net) at %s: library psqt %d positional %d, Stockfish "
                     "psqt %d positional %d, Stockfish from scratch psqt %d positional %d; reached "
                     "as position fen %s moves%s\n",
                     selfDiff ? "Stockfish differs from itself" : "MISMATCH", net,
                     pos.fen().c_str(), ours.first, ours.second, sf.first, sf.second, fp, fq,
                     s.rootFen.c_str(), moves.c_str());
    if (!selfDiff)
        std::abort();
    return sf;
}
#endif

}  // namespace

Stacks::Stacks() {
    const nnue_net* both_nets[] = {nets.big, nets.small};
    if (int rc = nnue_stack_new_multi(both_nets, 2, &both))
        fail("nnue_stack_new_multi", rc);
}

Stacks::~Stacks() { nnue_stack_free(both); }

void reset(AccumulatorStack& acc, const Position& pos, const OptionsMap& options) {
    // The library evaluates with the embedded nets: a search with other nets is refused rather
    // than run with two different evaluations.
    if (std::string(options["EvalFile"]) != EvalFileDefaultNameBig
        || std::string(options["EvalFileSmall"]) != EvalFileDefaultNameSmall)
    {
        std::fprintf(stderr, "nnue-capi: this build evaluates with the embedded nets %s and %s "
                             "only; EvalFile/EvalFileSmall name others\n",
                     EvalFileDefaultNameBig, EvalFileDefaultNameSmall);
        std::exit(EXIT_FAILURE);
    }
    reset_stacks(acc.lib, pos);
}

std::pair<DirtyPiece&, DirtyThreats&> dirty(AccumulatorStack& acc) {
#ifdef NNUE_CAPI_CHECK
    return acc.push();
#else
    return {acc.lib.dp, acc.lib.dts};
#endif
}

void push(AccumulatorStack& acc, const DirtyPiece& dp) {
#ifdef NNUE_CAPI_CHECK
    if (acc.lib.ply < int(std::size(acc.lib.moves)))
        acc.lib.moves[acc.lib.ply] = dp;
    acc.lib.ply++;
#endif
    nnue_change changes[NNUE_MAX_CHANGES];
    size_t      n = 0;
    if (dp.from != dp.to)  // a Chess960 castling may leave the king where it was
        changes[n++] = {piece_code(dp.pc), uint8_t(dp.from), uint8_t(dp.to)};  // to: SQ_NONE = 64
    if (dp.remove_sq != SQ_NONE)
        changes[n++] = {piece_code(dp.remove_pc), uint8_t(dp.remove_sq), NNUE_NO_SQUARE};
    if (dp.add_sq != SQ_NONE)
        changes[n++] = {piece_code(dp.add_pc), NNUE_NO_SQUARE, uint8_t(dp.add_sq)};
    if (int rc = nnue_stack_push(acc.lib.both, changes, n))
        fail("nnue_stack_push", rc);
}

void pop(AccumulatorStack& acc) {
#ifdef NNUE_CAPI_CHECK
    acc.pop();
    acc.lib.ply--;
#endif
    if (int rc = nnue_stack_pop(acc.lib.both))
        fail("nnue_stack_pop", rc);
}

std::pair<Value, Value> evaluate_big([[maybe_unused]] const Networks& networks,
                                     const Position&                  pos,
                                     AccumulatorStack&                acc,
                                     [[maybe_unused]] AccumulatorCaches& caches) {
    auto ours = evaluate(0, pos, acc.lib);
#ifdef NNUE_CAPI_CHECK
    return check("big", 0, pos, acc.lib, ours, networks.big.evaluate(pos, acc, caches.big),
                 networks.big, &AccumulatorCaches::big, networks);
#else
    return ours;
#endif
}

std::pair<Value, Value> evaluate_small([[maybe_unused]] const Networks& networks,
                                       const Position&                  pos,
                                       AccumulatorStack&                acc,
                                       [[maybe_unused]] AccumulatorCaches& caches) {
    auto ours = evaluate(1, pos, acc.lib);
#ifdef NNUE_CAPI_CHECK
    return check("small", 1, pos, acc.lib, ours, networks.small.evaluate(pos, acc, caches.small),
                 networks.small, &AccumulatorCaches::small, networks);
#else
    return ours;
#endif
}

}  // namespace nnue_capi
