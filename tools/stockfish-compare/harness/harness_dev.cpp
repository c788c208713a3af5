// Stockfish-side harness of tools/stockfish-compare for the NNUE API of
// Stockfish master of 2026-08-03 (tag stockfish-dev-20260803-762dd1da): one
// net (EvalFile), owned by the Engine; one accumulator stack combining the
// HalfKA and threat features; refresh caches; sparse-input (NNZ) bookkeeping
// handed from the transformer to the layers.
//
// Written for this project. compare.py copies it into a Stockfish checkout
// as src/nnue_compare.cpp and adds two UCI commands to uci.cpp:
//
//   nnuebench big <timing_moves.tsv> <runs> <ops>
//   nnuedump  big <fens.txt>
//
// The net is the one Stockfish loaded through its EvalFile option. Private
// members are reached as in harness_sf17.cpp (explicit instantiation).

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "engine.h"
#include "memory.h"
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

struct EngineNetwork {
    using type = LazyNumaReplicatedSystemWide<Eval::NNUE::Network> Engine::*;
    friend type get(EngineNetwork);
};
template struct Grant<EngineNetwork, &Engine::network>;

struct EngineNetworkFile {
    using type = Eval::NNUE::EvalFile Engine::*;
    friend type get(EngineNetworkFile);
};
template struct Grant<EngineNetworkFile, &Engine::networkFile>;

struct NetworkTransformer {
    using type = Eval::NNUE::FeatureTransformer Eval::NNUE::Network::*;
    friend type get(NetworkTransformer);
};
template struct Grant<NetworkTransformer, &Eval::NNUE::Network::featureTransformer>;

struct NetworkLayers {
    using type = Eval::NNUE::NetworkArchitecture (Eval::NNUE::Network::*)[Eval::NNUE::LayerStacks];
    friend type get(NetworkLayers);
};
template struct Grant<NetworkLayers, &Eval::NNUE::Network::network>;

}  // namespace Stockfish::nnue_compare_access

namespace Stockfish::nnue_compare {
namespace {

using namespace ::nnue_cmp;
namespace A = nnue_compare_access;
using namespace Eval::NNUE;

struct Runner {
    const Network&                     net;
    const FeatureTransformer&          ft;
    const NetworkArchitecture*         layers;
    // The caches and the stack on large pages, as in Stockfish's engine, whose
    // search worker (holding both) is allocated with make_unique_large_page
    // from Stockfish 18 on.
    LargePagePtr<AccumulatorCaches>    caches;
    AccumulatorCaches&                 cache;
    LargePagePtr<AccumulatorStack>     stack;
    NNZInfo<L1>                        nnz;
    alignas(64) TransformedFeatureType transformed[FeatureTransformer::BufferSize];

    explicit Runner(const Network& n) :
        net(n),
        ft(n.*get(A::NetworkTransformer{})),
        layers(&(n.*get(A::NetworkLayers{}))[0]),
        caches(make_unique_large_page<AccumulatorCaches>(n)),
        cache(*caches),
        stack(make_unique_large_page<AccumulatorStack>()) {}

    // The stack holds this position alone, its accumulators not computed:
    // Stockfish's own state at the root of a search (AccumulatorStack::reset()),
    // from which evaluate() refreshes both perspectives.
    void root() { stack->reset(); }

    // The accumulators computed (through the refresh cache), nothing else.
    void compute(const Position& pos) {
        root();
        stack->evaluate(pos, ft, cache);
    }

    int evaluate(const Position& pos) {
        auto [psqt, positional] = net.evaluate(pos, *stack, cache);
        return int(psqt) + int(positional);
    }

    // A fresh NNZInfo per transform, default-initialised as in Network::evaluate:
    // the AVX-512 build's NNZInfo appends after its `count`, so a reused one
    // would grow past its array.
    std::int32_t transform(const Position& pos, int bucket) {
        nnz.~NNZInfo<L1>();
        new (&nnz) NNZInfo<L1>;
        return ft.transform(pos, *stack, cache, transformed, bucket, nnz);
    }
    std::int32_t propagate(int bucket) const { return layers[bucket].propagate(transformed, nnz); }

    // The PSQT accumulator of colour c, bucket b (HalfKA and threats combined).
    std::int32_t psqt_accumulator(Color c, int bucket) const {
        return stack->latest().psqtAccumulation[c][bucket];
    }

    void empty_cache_entries(const Position& pos) {
        for (Color c : {WHITE, BLACK})
            cache[pos.square<KING>(c)][c].clear(ft.biases);
    }

    // What nnue_cmp::bench() needs from the dev tag: per operation the untimed
    // setup of a position, returning the work to time.
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
        transform(pos, bucket);
        keep(propagate(bucket));
        touch_position(pos);
        return [this, bucket] { return propagate(bucket); };
    }

    // Makes m as a search does (the stack pushed, then do_move), runs
    // f(dirties) in the child position, takes m back (stack popped, undo_move).
    template<typename F>
    int play(Position& pos, Move m, StateInfo& st, F&& f) {
        Dirties& dirties = stack->push();
        pos.do_move(m, st, pos.gives_check(m), dirties, nullptr, nullptr);
        const int v = f(dirties);
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
        return [this, &pos, m, &st] { return play(pos, m, st, [](const auto& d) { return int(d.dirtyPiece.pc); }); };
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
            out.psqt[b]       = transform(pos, b);
            out.positional[b] = propagate(b);
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
void run(R& r, const std::string& file, const std::string& token, std::istream& is) {
    std::printf("nnue_compare_net\t%s\n", file.c_str());
    if (token == "nnuebench")
        nnue_cmp::bench<Position, StateInfo>(r, is, Move::none());
    else
        nnue_cmp::dump(is, Outputs::columns(),
                       [&](const std::string& fen) { return r.outputs(fen).values(); });
}

}  // namespace

void command(Engine& engine, const std::string& token, std::istream& is);
void command(Engine& engine, const std::string& token, std::istream& is) {
    std::string slot;
    is >> slot;
    if (slot != "big")
        return fail("this Stockfish has one net: the slot must be big");
    const Network&     network = *(engine.*get(A::EngineNetwork{}));
    const auto&        current = (engine.*get(A::EngineNetworkFile{})).current;
    const std::string  file    = current ? current->string() : std::string("None");
    auto               r       = std::make_unique<Runner>(network);
    run(*r, file, token, is);
}

}  // namespace Stockfish::nnue_compare

// The entry point called from the line compare.py adds to UCIEngine::loop().
void nnue_compare_command(Stockfish::Engine& engine, const std::string& token, std::istream& is);
void nnue_compare_command(Stockfish::Engine& engine, const std::string& token, std::istream& is) {
    Stockfish::nnue_compare::command(engine, token, is);
}
