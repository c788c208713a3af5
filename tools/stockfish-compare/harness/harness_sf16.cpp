// Stockfish-side harness of tools/stockfish-compare for the Stockfish 16.1
// NNUE API (two global nets, big and small; accumulators inside StateInfo;
// no refresh cache).
//
// Written for this project. compare.py copies it into a Stockfish checkout
// as src/nnue_compare.cpp and adds two UCI commands to uci.cpp:
//
//   nnuebench <big|small> <timing_moves.tsv> <runs> <ops>
//   nnuedump  <big|small> <fens.txt>
//
// The nets are the ones Stockfish loaded through its own options (EvalFile,
// EvalFileSmall); <big|small> says which of the two to use.

#include <cstdint>
#include <memory>
#include <type_traits>
#include <string>
#include <vector>

#include "evaluate.h"
#include "movegen.h"
#include "nnue/evaluate_nnue.h"
#include "nnue/nnue_architecture.h"
#include "nnue/nnue_feature_transformer.h"
#include "position.h"
#include "uci.h"

#include "nnue_compare_common.h"

namespace Stockfish::Eval::NNUE {
// Defined in nnue/evaluate_nnue.cpp (not declared in any header).
extern LargePagePtr<FeatureTransformer<TransformedFeatureDimensionsBig, &StateInfo::accumulatorBig>>
  featureTransformerBig;
extern LargePagePtr<FeatureTransformer<TransformedFeatureDimensionsSmall, &StateInfo::accumulatorSmall>>
  featureTransformerSmall;
extern AlignedPtr<Network<TransformedFeatureDimensionsBig, L2Big, L3Big>>       networkBig[LayerStacks];
extern AlignedPtr<Network<TransformedFeatureDimensionsSmall, L2Small, L3Small>> networkSmall[LayerStacks];
}  // namespace Stockfish::Eval::NNUE

namespace Stockfish::nnue_compare {
namespace {

using namespace ::nnue_cmp;
using namespace Eval::NNUE;

// One of the two nets (its transformer, layer stacks and accumulator slot),
// and what nnue_cmp::bench() needs from Stockfish 16.1: per operation the
// untimed setup of a position, returning the work to time.
template<NetSize Size, typename FT, typename Layers, typename Acc>
struct Net {
    FT&          ft;
    Layers*      layers;  // array of LayerStacks pointers
    Acc StateInfo::*acc;
    alignas(64) TransformedFeatureType transformed[FT::BufferSize];

    static constexpr bool        refresh_cache = false;
    static constexpr const char* name          = "Stockfish 16.1";

    static void set(Position& pos, const std::string& fen, StateInfo& st) { pos.set(fen, false, &st); }
    static Move to_move(const Position& pos, std::string uci) { return UCI::to_move(pos, uci); }
    static Move king_move(const Position& pos) {
        return smallest_king_move(
          MoveList<LEGAL>(pos),
          [&](Move m) { return type_of(pos.moved_piece(m)) == KING && m.type_of() != CASTLING; },
          [](Move m) { return UCI::move(m, false); }, Move::none());
    }

    void not_computed(const Position& pos) {
        (pos.state()->*acc).computed[WHITE] = false;
        (pos.state()->*acc).computed[BLACK] = false;
    }
    int evaluate(const Position& pos) { return Eval::NNUE::evaluate<Size>(pos, false, nullptr); }

    // Reads the Position and its StateInfo (which holds the accumulators), last
    // in a setup: the timed work starts with them hot, as in a search.
    static void touch_position(const Position& pos) {
        touch(&pos, sizeof(Position));
        touch(pos.state(), sizeof(StateInfo));
    }

    // Makes m (into st), runs f() in the child position, takes m back.
    template<typename F>
    static int play(Position& pos, Move m, StateInfo& st, F&& f) {
        pos.do_move(m, st);
        const int v = f();
        pos.undo_move(m);
        return v;
    }
    std::int32_t propagate(int bucket) { return layers[bucket]->propagate(transformed); }

    auto refresh(Position& pos) {
        not_computed(pos);
        touch_position(pos);
        return [this, &pos] { return evaluate(pos); };
    }
    auto eval(Position& pos) {
        not_computed(pos);
        keep(evaluate(pos));  // accumulators ready, layers warm
        touch_position(pos);
        return [this, &pos] { return evaluate(pos); };
    }
    auto forward(Position& pos) {
        not_computed(pos);
        const int bucket = (pos.count<ALL_PIECES>() - 1) / 4;
        ft.transform(pos, transformed, bucket);
        keep(propagate(bucket));
        touch_position(pos);
        return [this, bucket] { return propagate(bucket); };
    }
    // move (and kingmove: the mover's accumulator refreshed from scratch) and
    // domove: the accumulators computed, then m made and taken back untimed,
    // as in a search (pos, its state and st hot); do_move marks st's
    // accumulators not computed again, so the timed evaluation still updates them.
    auto move(Position& pos, Move m, StateInfo& st) {
        not_computed(pos);
        ft.hint_common_access(pos);  // the accumulators computed, nothing else
        keep(play(pos, m, st, [] { return 0; }));
        return [this, &pos, m, &st] { return play(pos, m, st, [this, &pos] { return evaluate(pos); }); };
    }
    auto domove(Position& pos, Move m, StateInfo& st) {
        not_computed(pos);
        ft.hint_common_access(pos);
        keep(play(pos, m, st, [] { return 0; }));
        return [&pos, m, &st] { return play(pos, m, st, [&pos] { return int(pos.side_to_move()); }); };
    }

    Outputs outputs(const std::string& fen) {
        StateInfo st;
        Position  pos;
        set(pos, fen, st);
        Outputs out;
        out.bucket = (pos.count<ALL_PIECES>() - 1) / 4;
        for (int b = 0; b < 8; ++b)
        {
            out.psqt[b]       = ft.transform(pos, transformed, b);
            out.positional[b] = propagate(b);
        }
        for (int b = 0; b < 8; ++b)
        {
            out.psqtacc_stm[b]  = (st.*acc).psqtAccumulation[pos.side_to_move()][b];
            out.psqtacc_nstm[b] = (st.*acc).psqtAccumulation[~pos.side_to_move()][b];
        }
        return out;
    }
};

template<typename N>
void run(N& n, const std::string& token, std::istream& is) {
    if (token == "nnuebench")
        nnue_cmp::bench<Position, StateInfo>(n, is, Move::none());
    else
        nnue_cmp::dump(is, Outputs::columns(),
                       [&](const std::string& fen) { return n.outputs(fen).values(); });
}

}  // namespace
}  // namespace Stockfish::nnue_compare

// The entry point called from the line compare.py adds to UCI::loop().
void nnue_compare_command(const Stockfish::UCI& uci, const std::string& token, std::istream& is);
void nnue_compare_command(const Stockfish::UCI& uci, const std::string& token, std::istream& is) {
    using namespace Stockfish;
    using namespace Stockfish::Eval::NNUE;
    std::string slot;
    is >> slot;
    using BigNet   = nnue_compare::Net<Big, std::remove_reference_t<decltype(*featureTransformerBig)>,
                                     std::remove_reference_t<decltype(networkBig[0])>,
                                     decltype(StateInfo::accumulatorBig)>;
    using SmallNet = nnue_compare::Net<Small, std::remove_reference_t<decltype(*featureTransformerSmall)>,
                                       std::remove_reference_t<decltype(networkSmall[0])>,
                                       decltype(StateInfo::accumulatorSmall)>;
    if (slot == "big")
    {
        std::printf("nnue_compare_net\t%s\n", uci.evalFiles.at(Big).current.c_str());
        auto n = std::unique_ptr<BigNet>(new BigNet{*featureTransformerBig, networkBig, &StateInfo::accumulatorBig, {}});
        nnue_compare::run(*n, token, is);
    }
    else if (slot == "small")
    {
        std::printf("nnue_compare_net\t%s\n", uci.evalFiles.at(Small).current.c_str());
        auto n = std::unique_ptr<SmallNet>(
          new SmallNet{*featureTransformerSmall, networkSmall, &StateInfo::accumulatorSmall, {}});
        nnue_compare::run(*n, token, is);
    }
    else
        nnue_cmp::fail("first argument must be big or small, not `" + slot + "`");
}
