// tools/stockfish-search (nnue): Stockfish's search evaluating through nnue's C API.
//
// Copied into a Stockfish 18 source tree by search.py, which also makes the small edits that
// call it (see README.md). Written for this project; no Stockfish code is copied.
//
// Built two ways:
//   default            Eval::evaluate's network calls are answered by the library alone;
//                      Stockfish's accumulator stack is not pushed and its DirtyThreats are not
//                      computed (nothing of Stockfish's NNUE runs in a search).
//   -DNNUE_CAPI_CHECK  Stockfish's stack is pushed and popped as in the unchanged engine, every
//                      evaluation is computed by both, and the first difference aborts with the
//                      position's FEN.

#ifndef NNUE_CAPI_GLUE_H_INCLUDED
#define NNUE_CAPI_GLUE_H_INCLUDED

#include <string>
#include <utility>

#include "nnue.h"
#include "types.h"

namespace Stockfish {
class Position;
class OptionsMap;
namespace Eval::NNUE {
class AccumulatorStack;
struct AccumulatorCaches;
struct Networks;
}
}

namespace nnue_capi {

// The library's stack over both nets (net 0 the big one, net 1 the small one: each move checked
// and pushed once for both), carried by Stockfish's AccumulatorStack, so that each search worker
// (and each temporary stack, as Eval::trace makes) has its own.
struct Stacks {
    nnue_stack* both = nullptr;
    // Reset from a position since construction: a stack that never was (Eval::trace's) is reset
    // from the position of its first evaluation.
    bool synced = false;
    // Where Stockfish's do_move writes the move's pieces when its own stack is not pushed.
    Stockfish::DirtyPiece   dp;
    Stockfish::DirtyThreats dts;
#ifdef NNUE_CAPI_CHECK
    // The root and the moves since, to report where a difference was found.
    std::string           rootFen;
    int                   ply = 0;
    Stockfish::DirtyPiece moves[Stockfish::MAX_PLY + 8];
#endif

    Stacks();
    ~Stacks();
    Stacks(const Stacks&)            = delete;
    Stacks& operator=(const Stacks&) = delete;
};

// After Stockfish's AccumulatorStack::reset() at the start of a search: the root position.
void reset(Stockfish::Eval::NNUE::AccumulatorStack& acc,
           const Stockfish::Position&               pos,
           const Stockfish::OptionsMap&             options);

// Where Position::do_move writes the move's changes: Stockfish's own stack entry in the check
// build (pushed as the unchanged engine does), scratch storage otherwise.
std::pair<Stockfish::DirtyPiece&, Stockfish::DirtyThreats&>
dirty(Stockfish::Eval::NNUE::AccumulatorStack& acc);

// After Position::do_move: the library's stack gets the move's piece changes.
void push(Stockfish::Eval::NNUE::AccumulatorStack& acc, const Stockfish::DirtyPiece& dp);

// Where Stockfish pops its stack (and does so in the check build).
void pop(Stockfish::Eval::NNUE::AccumulatorStack& acc);

// In place of networks.big.evaluate(pos, acc, caches.big) and networks.small.evaluate(...):
// {psqt / OutputScale, positional / OutputScale}, as Stockfish's Network::evaluate returns.
std::pair<Stockfish::Value, Stockfish::Value>
evaluate_big(const Stockfish::Eval::NNUE::Networks&   networks,
             const Stockfish::Position&               pos,
             Stockfish::Eval::NNUE::AccumulatorStack& acc,
             Stockfish::Eval::NNUE::AccumulatorCaches& caches);
std::pair<Stockfish::Value, Stockfish::Value>
evaluate_small(const Stockfish::Eval::NNUE::Networks&   networks,
               const Stockfish::Position&               pos,
               Stockfish::Eval::NNUE::AccumulatorStack& acc,
               Stockfish::Eval::NNUE::AccumulatorCaches& caches);

}  // namespace nnue_capi

#endif  // NNUE_CAPI_GLUE_H_INCLUDED
