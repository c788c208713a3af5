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
#include <deque>
#include <string>
#include <vector>

#include "evaluate.h"
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

// One of the two nets: its transformer, layer stacks and accumulator slot.
template<NetSize Size, typename FT, typename Layers, typename Acc>
struct Net {
    FT&          ft;
    Layers*      layers;  // array of LayerStacks pointers
    Acc StateInfo::*acc;
    alignas(64) TransformedFeatureType transformed[FT::BufferSize];

    void not_computed(const Position& pos) {
        (pos.state()->*acc).computed[WHITE] = false;
        (pos.state()->*acc).computed[BLACK] = false;
    }
    int evaluate(const Position& pos) { return Eval::NNUE::evaluate<Size>(pos, false, nullptr); }
    std::int32_t forward(int bucket) { return layers[bucket]->propagate(transformed); }
};

template<typename N>
void bench(N& n, std::istream& is) {
    std::string path, ops_list;
    int         runs = 21;
    is >> path >> runs >> ops_list;
    std::vector<MoveRow> rows;
    std::vector<Op>      ops;
    if (!read_moves(path, rows))
        return fail("cannot read " + path);
    if (!parse_ops(ops_list.empty() ? "all" : ops_list, false, ops))
        return fail("unknown operation in `" + ops_list + "`");
    for (Op op : ops)
        if (op == Op::RefreshHot)
            return fail("Stockfish 16.1 has no refresh cache (no refresh_hot)");

    std::deque<StateInfo> states(rows.size());
    std::vector<Position> positions(rows.size());
    std::vector<Move>     quiet(rows.size(), Move::none());
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        positions[i].set(rows[i].fen, false, &states[i]);
        if (rows[i].quiet != "-")
        {
            quiet[i] = UCI::to_move(positions[i], rows[i].quiet);
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
                n.not_computed(pos);
                ns = timed([&] { return n.evaluate(pos); }, res.checksum);
                break;
            case Op::RefreshHot :
                break;
            case Op::Eval :
                n.not_computed(pos);
                keep(n.evaluate(pos));  // accumulators ready, layers warm
                ns = timed([&] { return n.evaluate(pos); }, res.checksum);
                break;
            case Op::Forward : {
                n.not_computed(pos);
                const int bucket = (pos.count<ALL_PIECES>() - 1) / 4;
                n.ft.transform(pos, n.transformed, bucket);
                keep(n.forward(bucket));
                ns = timed([&] { return n.forward(bucket); }, res.checksum);
                break;
            }
            case Op::Move : {
                if (quiet[i] == Move::none())
                    continue;
                const Move m = quiet[i];
                n.not_computed(pos);
                n.ft.hint_common_access(pos);  // the accumulators computed, nothing else
                StateInfo st;
                ns = timed(
                  [&] {
                      pos.do_move(m, st);
                      int v = n.evaluate(pos);
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
                n.not_computed(pos);
                n.ft.hint_common_access(pos);
                StateInfo st;
                ns = timed(
                  [&] {
                      pos.do_move(m, st);
                      const int v = int(pos.side_to_move());
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

template<typename N>
void dump(N& n, std::istream& is) {
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
        std::int32_t psqt[8], positional[8];
        for (int b = 0; b < 8; ++b)
        {
            psqt[b]       = n.ft.transform(pos, n.transformed, b);
            positional[b] = n.forward(b);
        }
        std::printf("%s\t%d", fen.c_str(), (pos.count<ALL_PIECES>() - 1) / 4);
        for (int b = 0; b < 8; ++b)
            std::printf("\t%d", psqt[b]);
        for (int b = 0; b < 8; ++b)
            std::printf("\t%d", positional[b]);
        for (Color c : {pos.side_to_move(), ~pos.side_to_move()})
            for (int b = 0; b < 8; ++b)
                std::printf("\t%d", (st.*n.acc).psqtAccumulation[c][b]);
        std::printf("\n");
    }
    std::printf("nnuedump\tdone\n");
    std::fflush(stdout);
}

template<typename N>
void run(N& n, const std::string& token, std::istream& is) {
    if (token == "nnuebench")
        bench(n, is);
    else
        dump(n, is);
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
