// Stockfish-side harness of tools/stockfish-compare for the Stockfish 12
// NNUE API (one global HalfKP net, the accumulator inside StateInfo).
//
// Written for this project. compare.py copies it into a Stockfish checkout
// as src/nnue_compare.cpp and adds two UCI commands to uci.cpp:
//
//   nnuebench big <timing_moves.tsv> <runs> <ops>
//   nnuedump  big <fens.txt>
//
// The net is the one Stockfish loaded through its EvalFile option.

#include <cstdint>
#include <string>
#include <vector>

#include "evaluate.h"
#include "movegen.h"
#include "nnue/evaluate_nnue.h"
#include "position.h"
#include "thread.h"
#include "uci.h"

#include "nnue_compare_common.h"

namespace Eval::NNUE {
// Defined in nnue/evaluate_nnue.cpp (not declared in any header).
extern AlignedPtr<FeatureTransformer> feature_transformer;
extern AlignedPtr<Network>            network;
}  // namespace Eval::NNUE

namespace nnue_compare_sf12 {
namespace {

using namespace nnue_cmp;
using namespace Eval::NNUE;

alignas(64) TransformedFeatureType transformed[FeatureTransformer::kBufferSize];
alignas(64) char buffer[Network::kBufferSize];

std::int32_t propagate() { return network->Propagate(transformed, buffer)[0]; }

void not_computed(const Position& pos) {
    pos.state()->accumulator.computed_accumulation = false;
    pos.state()->accumulator.computed_score        = false;
}

// Reads the Position and its StateInfo (which holds the accumulator), last in
// a setup: the timed work starts with them hot, as in a search.
void touch_position(const Position& pos) {
    touch(&pos, sizeof(Position));
    touch(pos.state(), sizeof(StateInfo));
}

// Makes m (into st), runs f() in the child position, takes m back.
template<typename F>
int play(Position& pos, Move m, StateInfo& st, F&& f) {
    pos.do_move(m, st);
    const int v = f();
    pos.undo_move(m);
    return v;
}

// What nnue_cmp::bench() needs from Stockfish 12: per operation the untimed
// setup of a position, returning the work to time.
struct Harness {
    static constexpr bool        refresh_cache = false;
    static constexpr const char* name          = "Stockfish 12";

    static void set(Position& pos, const std::string& fen, StateInfo& st) {
        pos.set(fen, false, &st, Threads.main());
    }
    static Move to_move(const Position& pos, std::string uci) { return UCI::to_move(pos, uci); }
    static Move king_move(const Position& pos) {
        return smallest_king_move(
          MoveList<LEGAL>(pos),
          [&](Move m) { return type_of(pos.moved_piece(m)) == KING && type_of(m) != CASTLING; },
          [](Move m) { return UCI::move(m, false); }, MOVE_NONE);
    }

    auto refresh(Position& pos) {
        not_computed(pos);
        touch_position(pos);
        return [&pos] { return Eval::NNUE::compute_eval(pos); };
    }
    auto eval(Position& pos) {
        not_computed(pos);
        keep(Eval::NNUE::compute_eval(pos));  // accumulator ready, layers warm
        pos.state()->accumulator.computed_score = false;
        touch_position(pos);
        return [&pos] { return Eval::NNUE::evaluate(pos); };
    }
    auto forward(Position& pos) {
        not_computed(pos);
        feature_transformer->Transform(pos, transformed, true);
        keep(propagate());
        touch_position(pos);
        return [] { return propagate(); };
    }
    // move (and kingmove: the mover's accumulator refreshed from scratch) and
    // domove: the accumulator computed, then m made and taken back untimed, as
    // in a search (pos, its state and st hot); do_move marks st's accumulator
    // not computed again, so the timed evaluation still updates it.
    auto move(Position& pos, Move m, StateInfo& st) {
        not_computed(pos);
        feature_transformer->Transform(pos, transformed, true);  // accumulator computed
        keep(play(pos, m, st, [] { return 0; }));
        return [&pos, m, &st] { return play(pos, m, st, [&pos] { return int(Eval::NNUE::evaluate(pos)); }); };
    }
    auto domove(Position& pos, Move m, StateInfo& st) {
        not_computed(pos);
        feature_transformer->Transform(pos, transformed, true);
        keep(play(pos, m, st, [] { return 0; }));
        return [&pos, m, &st] { return play(pos, m, st, [&pos] { return int(pos.side_to_move()); }); };
    }
};

std::vector<std::int32_t> output_raw(const std::string& fen) {
    StateInfo st;
    Position  pos;
    Harness::set(pos, fen, st);
    feature_transformer->Transform(pos, transformed, true);
    return {propagate()};
}

}  // namespace
}  // namespace nnue_compare_sf12

// The entry point called from the line compare.py adds to UCI::loop().
void nnue_compare_command(const std::string& token, std::istream& is);
void nnue_compare_command(const std::string& token, std::istream& is) {
    std::string slot;
    is >> slot;
    std::printf("nnue_compare_net\t%s\n", Eval::eval_file_loaded.c_str());
    if (slot != "big")
        return nnue_cmp::fail("Stockfish 12 has one net: the slot must be big");
    if (!Eval::useNNUE)
        return nnue_cmp::fail("NNUE is off (Use NNUE)");
    nnue_compare_sf12::Harness h;
    if (token == "nnuebench")
        nnue_cmp::bench<Position, StateInfo>(h, is, MOVE_NONE);
    else
        nnue_cmp::dump(is, {"output_raw"}, nnue_compare_sf12::output_raw);
}
