// Stockfish-side harness of tools/stockfish-compare for the Stockfish 17.1
// NNUE API (Networks owned by the Engine, AccumulatorStack, refresh caches).
//
// Written for this project. compare.py copies it into a Stockfish checkout
// as src/nnue_compare.cpp and adds two UCI commands to uci.cpp:
//
//   nnuebench <big|small> <timing_moves.tsv> <runs> <ops>
//   nnuedump  <big|small> <fens.txt>
//
// The net is the one Stockfish loaded through its own options (EvalFile,
// EvalFileSmall); <big|small> says which of the two slots to use.
//
// Stockfish keeps some of what we need private (the network's transformer
// and layer stacks, the accumulator stack's storage). They are reached
// through the standard explicit-instantiation rule (access checks do not
// apply to the template arguments of an explicit instantiation), so no
// Stockfish file has to be edited for it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine.h"
#include "movegen.h"
#include "nnue/network.h"
#include "nnue/nnue_accumulator.h"
#include "nnue/nnue_architecture.h"
#include "nnue/nnue_feature_transformer.h"
#include "position.h"
#include "types.h"
#include "uci.h"

#include "nnue_compare_common.h"

namespace Stockfish::nnue_compare_access {

template<typename Tag, typename Tag::type Member>
struct Grant {
    friend typename Tag::type get(Tag) { return Member; }
};

using Eval::NNUE::AccumulatorStack;
using Eval::NNUE::AccumulatorState;
using Eval::NNUE::NetworkBig;
using Eval::NNUE::NetworkSmall;

struct EngineNetworks {
    using type = LazyNumaReplicated<Eval::NNUE::Networks> Engine::*;
    friend type get(EngineNetworks);
};
template struct Grant<EngineNetworks, &Engine::networks>;

struct StackStates {
    using type = std::vector<AccumulatorState> AccumulatorStack::*;
    friend type get(StackStates);
};
template struct Grant<StackStates, &AccumulatorStack::m_accumulators>;

struct StackSize {
    using type = std::size_t AccumulatorStack::*;
    friend type get(StackSize);
};
template struct Grant<StackSize, &AccumulatorStack::m_current_idx>;

#define NNUE_COMPARE_NET_MEMBERS(NET, TRANSFORMER, ARCH)                               \
    struct NET##Transformer {                                                          \
        using type = LargePagePtr<TRANSFORMER> NET::*;                                 \
        friend type get(NET##Transformer);                                             \
    };                                                                                 \
    template struct Grant<NET##Transformer, &NET::featureTransformer>;                 \
    struct NET##Layers {                                                               \
        using type = AlignedPtr<ARCH[]> NET::*;                                        \
        friend type get(NET##Layers);                                                  \
    };                                                                                 \
    template struct Grant<NET##Layers, &NET::network>;                                 \
    struct NET##File {                                                                 \
        using type = Eval::NNUE::EvalFile NET::*;                                      \
        friend type get(NET##File);                                                    \
    };                                                                                 \
    template struct Grant<NET##File, &NET::evalFile>;

NNUE_COMPARE_NET_MEMBERS(NetworkBig, Eval::NNUE::BigFeatureTransformer, Eval::NNUE::BigNetworkArchitecture)
NNUE_COMPARE_NET_MEMBERS(NetworkSmall, Eval::NNUE::SmallFeatureTransformer, Eval::NNUE::SmallNetworkArchitecture)

}  // namespace Stockfish::nnue_compare_access

namespace Stockfish::nnue_compare {

using namespace ::nnue_cmp;
namespace A = nnue_compare_access;
using namespace Eval::NNUE;

template<typename Net, typename TransformerTag, typename LayersTag, typename FileTag, IndexType Dims>
struct Runner {
    using Transformer = std::remove_reference_t<decltype(*(std::declval<Net&>().*get(TransformerTag{})))>;
    using Layers      = std::remove_reference_t<decltype((std::declval<Net&>().*get(LayersTag{}))[0])>;

    const Net&                        net;
    const Transformer&                ft;
    Layers*                           layers;
    std::unique_ptr<AccumulatorCaches> caches;
    AccumulatorCaches::Cache<Dims>&   cache;
    std::unique_ptr<AccumulatorStack> stack;
    alignas(64) TransformedFeatureType transformed[Transformer::BufferSize];

    Runner(const Networks& networks, const Net& n, AccumulatorCaches::Cache<Dims>& (*pick)(AccumulatorCaches&)) :
        net(n),
        ft(*(n.*get(TransformerTag{}))),
        layers(&(const_cast<Net&>(n).*get(LayersTag{}))[0]),
        caches(std::make_unique<AccumulatorCaches>(networks)),
        cache(pick(*caches)),
        stack(std::make_unique<AccumulatorStack>()) {}

    std::string file() const { return (net.*get(FileTag{})).current; }

    std::vector<AccumulatorState>& states() { return (*stack).*get(A::StackStates{}); }

    // Makes the top of the stack this position with neither accumulator computed,
    // arranged so that Stockfish's own AccumulatorStack::evaluate() refreshes
    // both perspectives through the refresh cache. Stockfish never evaluates
    // an uncomputed root (its reset() refreshes both nets at once), and it
    // refreshes one perspective when the last move was that side's king move.
    // So the stack is [unused, "black king moved", "white king moved" = this
    // position], both "moves" without piece changes: White refreshes at the
    // top, Black refreshes at the top too, and then also copies its fresh
    // accumulator one entry down (AccumulatorStack's backward update of an
    // empty change is a copy): the only work added to the two refreshes.
    void root() {
        DirtyPiece blackKing{}, whiteKing{};
        blackKing.dirty_num = whiteKing.dirty_num = 0;
        blackKing.piece[0]                       = B_KING;
        whiteKing.piece[0]                       = W_KING;
        (*stack).*get(A::StackSize{}) = 3;
        states()[0].reset(DirtyPiece{});
        states()[1].reset(blackKing);
        states()[2].reset(whiteKing);
    }

    // The root's accumulators computed (through the refresh cache), nothing else.
    void compute(const Position& pos) {
        root();
        stack->evaluate(pos, ft, cache);
    }

    int evaluate(const Position& pos) {
        auto [psqt, positional] = net.evaluate(pos, *stack, &cache);
        return int(psqt) + int(positional);
    }

    std::int32_t psqt_accumulator(Color c, int bucket) const {
        const AccumulatorState& s = stack->latest();
        if constexpr (Dims == TransformedFeatureDimensionsBig)
            return s.accumulatorBig.psqtAccumulation[c][bucket];
        else
            return s.accumulatorSmall.psqtAccumulation[c][bucket];
    }

    void empty_cache_entries(const Position& pos) {
        for (Color c : {WHITE, BLACK})
            cache[pos.square<KING>(c)][c].clear(ft.biases);
    }

    // What nnue_cmp::bench() needs from Stockfish 17.1: per operation the
    // untimed setup of a position, returning the work to time.
    static constexpr bool refresh_cache = true;

    static void set(Position& pos, const std::string& fen, StateInfo& st) { pos.set(fen, false, &st); }
    static Move to_move(const Position& pos, std::string uci) { return UCIEngine::to_move(pos, uci); }
    static Move king_move(const Position& pos) {
        return smallest_king_move(
          MoveList<LEGAL>(pos),
          [&](Move m) { return type_of(pos.moved_piece(m)) == KING && m.type_of() != CASTLING; },
          [](Move m) { return UCIEngine::move(m, false); }, Move::none());
    }

    // Reads the Position and its StateInfo, last in a setup: the timed work
    // starts with them hot, as in a search.
    static void touch_position(const Position& pos) {
        touch(&pos, sizeof(Position));
        touch(pos.state(), sizeof(StateInfo));
    }

    auto refresh(Position& pos) {
        root();
        empty_cache_entries(pos);
        touch_position(pos);
        return [this, &pos] { return evaluate(pos); };
    }
    auto refresh_hot(Position& pos) {
        compute(pos);  // the cache now holds this very position
        root();
        touch_position(pos);
        return [this, &pos] { return evaluate(pos); };
    }
    auto eval(Position& pos) {
        compute(pos);
        std::int64_t warm = 0;
        warm += evaluate(pos);  // warms the layer stack's weights
        keep(warm);
        touch_position(pos);
        return [this, &pos] { return evaluate(pos); };
    }
    auto forward(Position& pos) {
        compute(pos);
        const int bucket = (pos.count<ALL_PIECES>() - 1) / 4;
        ft.transform(pos, *stack, &cache, transformed, bucket);
        auto* layer = &layers[bucket];
        keep(layer->propagate(transformed));
        touch_position(pos);
        return [this, layer] { return layer->propagate(transformed); };
    }

    // Makes m as a search does (do_move, then the stack pushed), runs f(dp)
    // in the child position, takes m back (stack popped, undo_move).
    template<typename F>
    int play(Position& pos, Move m, StateInfo& st, F&& f) {
        DirtyPiece dp = pos.do_move(m, st, pos.gives_check(m), nullptr);
        stack->push(dp);
        const int v = f(dp);
        stack->pop();
        pos.undo_move(m);
        return v;
    }

    // move (and kingmove: the mover's perspective refreshed through the
    // refresh cache) and domove: the accumulators computed, then m made and
    // taken back untimed, as in a search (pos, its state, st and the stack's
    // next entry hot); nothing is evaluated, so the top stays computed and the
    // timed push gets an uncomputed entry again.
    auto move(Position& pos, Move m, StateInfo& st) {
        compute(pos);
        keep(play(pos, m, st, [](const auto&) { return 0; }));
        return [this, &pos, m, &st] {
            return play(pos, m, st, [this, &pos](const auto&) { return evaluate(pos); });
        };
    }
    auto domove(Position& pos, Move m, StateInfo& st) {
        compute(pos);
        keep(play(pos, m, st, [](const auto&) { return 0; }));
        return [this, &pos, m, &st] { return play(pos, m, st, [](const auto& dp) { return dp.dirty_num; }); };
    }

    Outputs outputs(const std::string& fen) {
        StateInfo st;
        Position  pos;
        set(pos, fen, st);
        compute(pos);
        Outputs out;
        out.bucket = (pos.count<ALL_PIECES>() - 1) / 4;
        for (int b = 0; b < 8; ++b)
        {
            out.psqt[b]       = ft.transform(pos, *stack, &cache, transformed, b);
            out.positional[b] = layers[b].propagate(transformed);
        }
        for (int b = 0; b < 8; ++b)
        {
            out.psqtacc_stm[b]  = psqt_accumulator(pos.side_to_move(), b);
            out.psqtacc_nstm[b] = psqt_accumulator(~pos.side_to_move(), b);
        }
        return out;
    }
};

template<typename R>
void run(R& r, const std::string& token, std::istream& is) {
    std::printf("nnue_compare_net\t%s\n", r.file().c_str());
    if (token == "nnuebench")
        nnue_cmp::bench<Position, StateInfo>(r, is, Move::none());
    else
        nnue_cmp::dump(is, Outputs::columns(),
                       [&](const std::string& fen) { return r.outputs(fen).values(); });
}

void command(Engine& engine, const std::string& token, std::istream& is);
void command(Engine& engine, const std::string& token, std::istream& is) {
    std::string slot;
    is >> slot;
    const Networks& networks = *(engine.*get(A::EngineNetworks{}));
    if (slot == "big")
    {
        auto r = std::make_unique<Runner<NetworkBig, A::NetworkBigTransformer, A::NetworkBigLayers,
                                         A::NetworkBigFile, TransformedFeatureDimensionsBig>>(
          networks, networks.big,
          +[](AccumulatorCaches& c) -> AccumulatorCaches::Cache<TransformedFeatureDimensionsBig>& {
              return c.big;
          });
        run(*r, token, is);
    }
    else if (slot == "small")
    {
        auto r = std::make_unique<Runner<NetworkSmall, A::NetworkSmallTransformer,
                                         A::NetworkSmallLayers, A::NetworkSmallFile,
                                         TransformedFeatureDimensionsSmall>>(
          networks, networks.small,
          +[](AccumulatorCaches& c) -> AccumulatorCaches::Cache<TransformedFeatureDimensionsSmall>& {
              return c.small;
          });
        run(*r, token, is);
    }
    else
        fail("first argument must be big or small, not `" + slot + "`");
}

}  // namespace Stockfish::nnue_compare

// The entry point called from the line compare.py adds to UCIEngine::loop().
void nnue_compare_command(Stockfish::Engine& engine, const std::string& token, std::istream& is);
void nnue_compare_command(Stockfish::Engine& engine, const std::string& token, std::istream& is) {
    Stockfish::nnue_compare::command(engine, token, is);
}
