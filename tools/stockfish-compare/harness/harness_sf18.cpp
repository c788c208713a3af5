// Stockfish-side harness of tools/stockfish-compare for the Stockfish 18
// NNUE API (Networks owned by the Engine, the accumulator stack split into
// piece-square and threat accumulators, refresh caches).
//
// Written for this project. compare.py copies it into a Stockfish checkout
// as src/nnue_compare.cpp and adds two UCI commands to uci.cpp:
//
//   nnuebench <big|small> <timing_moves.tsv> <runs> <ops>
//   nnuedump  <big|small> <fens.txt>
//
// The net is the one Stockfish loaded through its own options (EvalFile,
// EvalFileSmall); <big|small> says which of the two slots to use. Private
// members are reached as in harness_sf17.cpp (explicit instantiation).

#include <cstdint>
#include <deque>
#include <memory>
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

using Eval::NNUE::NetworkBig;
using Eval::NNUE::NetworkSmall;

struct EngineNetworks {
    using type = LazyNumaReplicatedSystemWide<Eval::NNUE::Networks> Engine::*;
    friend type get(EngineNetworks);
};
template struct Grant<EngineNetworks, &Engine::networks>;

#define NNUE_COMPARE_NET_MEMBERS(NET, TRANSFORMER, ARCH)                               \
    struct NET##Transformer {                                                          \
        using type = TRANSFORMER NET::*;                                               \
        friend type get(NET##Transformer);                                             \
    };                                                                                 \
    template struct Grant<NET##Transformer, &NET::featureTransformer>;                 \
    struct NET##Layers {                                                               \
        using type = ARCH(NET::*)[Eval::NNUE::LayerStacks];                            \
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
namespace {

using namespace ::nnue_cmp;
namespace A = nnue_compare_access;
using namespace Eval::NNUE;

template<typename Net, typename TransformerTag, typename LayersTag, typename FileTag, IndexType Dims>
struct Runner {
    using Transformer = std::remove_reference_t<decltype(std::declval<Net&>().*get(TransformerTag{}))>;
    using Layers      = std::remove_reference_t<decltype((std::declval<Net&>().*get(LayersTag{}))[0])>;

    const Net&                         net;
    const Transformer&                 ft;
    const Layers*                      layers;
    // The caches and the stack on large pages, as in Stockfish's engine, whose
    // search worker (holding both) is allocated with make_unique_large_page
    // from Stockfish 18 on.
    LargePagePtr<AccumulatorCaches>    caches;
    AccumulatorCaches::Cache<Dims>&    cache;
    LargePagePtr<AccumulatorStack>     stack;
    alignas(64) TransformedFeatureType transformed[Transformer::BufferSize];

    Runner(const Networks& networks, const Net& n, AccumulatorCaches::Cache<Dims>& (*pick)(AccumulatorCaches&)) :
        net(n),
        ft(n.*get(TransformerTag{})),
        layers(&(n.*get(LayersTag{}))[0]),
        caches(make_unique_large_page<AccumulatorCaches>(networks)),
        cache(pick(*caches)),
        stack(make_unique_large_page<AccumulatorStack>()) {}

    std::string file() const { return (net.*get(FileTag{})).current; }

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

    // The PSQT accumulator of colour c, bucket b (the threat part included).
    std::int32_t psqt_accumulator(Color c, int bucket) const {
        std::int32_t v = stack->template latest<PSQFeatureSet>().template acc<Dims>().psqtAccumulation[c][bucket];
        if constexpr (Dims == TransformedFeatureDimensionsBig)
            v += stack->template latest<ThreatFeatureSet>().template acc<Dims>().psqtAccumulation[c][bucket];
        return v;
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
                r.ft.transform(pos, *r.stack, r.cache, r.transformed, bucket);
                const auto* layer = &r.layers[bucket];
                keep(layer->propagate(r.transformed));
                ns = timed([&] { return layer->propagate(r.transformed); }, res.checksum);
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
                      auto [dp, dts] = r.stack->push();
                      pos.do_move(m, st, pos.gives_check(m), dp, dts, nullptr, nullptr);
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
                      auto [dp, dts] = r.stack->push();
                      pos.do_move(m, st, pos.gives_check(m), dp, dts, nullptr, nullptr);
                      const int v = int(dp.pc);
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
            psqt[b]       = r.ft.transform(pos, *r.stack, r.cache, r.transformed, b);
            positional[b] = r.layers[b].propagate(r.transformed);
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
void run(R& r, const std::string& token, std::istream& is) {
    std::printf("nnue_compare_net\t%s\n", r.file().c_str());
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
