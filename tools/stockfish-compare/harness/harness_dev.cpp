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
#include <deque>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "engine.h"
#include "memory.h"
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
    std::int32_t forward(int bucket) const { return layers[bucket].propagate(transformed, nnz); }

    // The PSQT accumulator of colour c, bucket b (HalfKA and threats combined).
    std::int32_t psqt_accumulator(Color c, int bucket) const {
        return stack->latest().psqtAccumulation[c][bucket];
    }

    void empty_cache_entries(const Position& pos) {
        for (Color c : {WHITE, BLACK})
            cache[pos.square<KING>(c)][c].clear(ft.biases);
    }
};

template<typename R>
void bench(R& r, std::istream& is) {
    std::string path, ops_list;
    int         runs = 21;
    is >> path >> runs >> ops_list;
    std::vector<MoveRow> rows;
    std::vector<Op>      ops;
    if (!read_moves(path, rows))
        return fail("cannot read " + path);
    if (!parse_ops(ops_list.empty() ? "all" : ops_list, true, ops))
        return fail("unknown operation in `" + ops_list + "`");

    std::deque<StateInfo> states(rows.size());
    std::vector<Position> positions(rows.size());
    std::vector<Move>     quiet(rows.size(), Move::none());
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        positions[i].set(rows[i].fen, false, &states[i]);
        if (rows[i].quiet != "-")
        {
            quiet[i] = UCIEngine::to_move(positions[i], rows[i].quiet);
            if (quiet[i] == Move::none())
                return fail("illegal move " + rows[i].quiet + " in " + rows[i].fen);
        }
    }
    const double clock = clock_overhead_ns();

    auto pass = [&](Op op) {
        PassResult res;
        for (std::size_t i = 0; i < positions.size(); ++i)
        {
            Position& pos = positions[i];
            double    ns  = 0;
            switch (op)
            {
            case Op::Refresh :
                r.root();
                r.empty_cache_entries(pos);
                ns = timed([&] { return r.evaluate(pos); }, res.checksum);
                break;
            case Op::RefreshHot :
                r.compute(pos);  // the cache now holds this very position
                r.root();
                ns = timed([&] { return r.evaluate(pos); }, res.checksum);
                break;
            case Op::Eval : {
                r.compute(pos);
                std::int64_t warm = 0;
                warm += r.evaluate(pos);  // warms the layer stack's weights
                keep(warm);
                ns = timed([&] { return r.evaluate(pos); }, res.checksum);
                break;
            }
            case Op::Forward : {
                r.compute(pos);
                const int bucket = (pos.count<ALL_PIECES>() - 1) / 4;
                r.transform(pos, bucket);
                keep(r.forward(bucket));
                ns = timed([&] { return r.forward(bucket); }, res.checksum);
                break;
            }
            case Op::Move : {
                if (quiet[i] == Move::none())
                    continue;
                const Move m = quiet[i];
                r.compute(pos);
                StateInfo st;
                ns = timed(
                  [&] {
                      Dirties& dirties = r.stack->push();
                      pos.do_move(m, st, pos.gives_check(m), dirties, nullptr, nullptr);
                      int v = r.evaluate(pos);
                      r.stack->pop();
                      pos.undo_move(m);
                      return v;
                  },
                  res.checksum);
                break;
            }
            case Op::DoMove : {  // the move making that `move` includes, alone
                if (quiet[i] == Move::none())
                    continue;
                const Move m = quiet[i];
                r.compute(pos);
                StateInfo st;
                ns = timed(
                  [&] {
                      Dirties& dirties = r.stack->push();
                      pos.do_move(m, st, pos.gives_check(m), dirties, nullptr, nullptr);
                      const int v = int(dirties.dirtyPiece.pc);
                      r.stack->pop();
                      pos.undo_move(m);
                      return v;
                  },
                  res.checksum);
                break;
            }
            }
            res.total_ns += ns - clock;
            res.positions += 1;
        }
        return res;
    };
    run_bench(ops, runs, pass);
}

template<typename R>
void dump(R& r, std::istream& is) {
    std::string path;
    is >> path;
    std::vector<std::string> fens;
    if (!read_fens(path, fens))
        return fail("cannot read " + path);
    std::printf("fen\tbucket");
    for (const char* col : {"psqt", "positional", "psqtacc_stm", "psqtacc_nstm"})
        for (int b = 0; b < 8; ++b)
            std::printf("\t%s_%d", col, b);
    std::printf("\n");
    for (const auto& fen : fens)
    {
        StateInfo st;
        Position  pos;
        pos.set(fen, false, &st);
        r.compute(pos);
        std::int32_t psqt[8], positional[8];
        for (int b = 0; b < 8; ++b)
        {
            psqt[b]       = r.transform(pos, b);
            positional[b] = r.forward(b);
        }
        std::printf("%s\t%d", fen.c_str(), (pos.count<ALL_PIECES>() - 1) / 4);
        for (int b = 0; b < 8; ++b)
            std::printf("\t%d", psqt[b]);
        for (int b = 0; b < 8; ++b)
            std::printf("\t%d", positional[b]);
        for (Color c : {pos.side_to_move(), ~pos.side_to_move()})
            for (int b = 0; b < 8; ++b)
                std::printf("\t%d", r.psqt_accumulator(c, b));
        std::printf("\n");
    }
    std::printf("nnuedump\tdone\n");
    std::fflush(stdout);
}

template<typename R>
void run(R& r, const std::string& file, const std::string& token, std::istream& is) {
    std::printf("nnue_compare_net\t%s\n", file.c_str());
    if (token == "nnuebench")
        bench(r, is);
    else
        dump(r, is);
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
