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
#include <deque>
#include <string>
#include <vector>

#include "evaluate.h"
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

std::int32_t forward() { return network->Propagate(transformed, buffer)[0]; }

void not_computed(const Position& pos) {
    pos.state()->accumulator.computed_accumulation = false;
    pos.state()->accumulator.computed_score        = false;
}

void bench(std::istream& is) {
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
            return fail("Stockfish 12 has no refresh cache (no refresh_hot)");

    std::deque<StateInfo> states(rows.size());
    std::vector<Position> positions(rows.size());
    std::vector<Move>     quiet(rows.size(), MOVE_NONE);
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        positions[i].set(rows[i].fen, false, &states[i], Threads.main());
        if (rows[i].quiet != "-")
        {
            quiet[i] = UCI::to_move(positions[i], rows[i].quiet);
            if (quiet[i] == MOVE_NONE)
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
                not_computed(pos);
                ns = timed([&] { return Eval::NNUE::compute_eval(pos); }, res.checksum);
                break;
            case Op::RefreshHot :
                break;
            case Op::Eval :
                not_computed(pos);
                keep(Eval::NNUE::compute_eval(pos));  // accumulator ready, layers warm
                pos.state()->accumulator.computed_score = false;
                ns = timed([&] { return Eval::NNUE::evaluate(pos); }, res.checksum);
                break;
            case Op::Forward :
                not_computed(pos);
                feature_transformer->Transform(pos, transformed, true);
                keep(forward());
                ns = timed([&] { return forward(); }, res.checksum);
                break;
            case Op::Move : {
                if (quiet[i] == MOVE_NONE)
                    continue;
                const Move m = quiet[i];
                not_computed(pos);
                feature_transformer->Transform(pos, transformed, true);  // accumulator computed
                StateInfo st;
                ns = timed(
                  [&] {
                      pos.do_move(m, st);
                      Value v = Eval::NNUE::evaluate(pos);
                      pos.undo_move(m);
                      return v;
                  },
                  res.checksum);
                break;
            }
            case Op::DoMove : {  // the move making that `move` includes, alone
                if (quiet[i] == MOVE_NONE)
                    continue;
                const Move m = quiet[i];
                not_computed(pos);
                feature_transformer->Transform(pos, transformed, true);
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

void dump(std::istream& is) {
    std::string path;
    is >> path;
    std::vector<std::string> fens;
    if (!read_fens(path, fens))
        return fail("cannot read " + path);
    std::printf("fen\toutput_raw\n");
    for (const auto& fen : fens)
    {
        StateInfo st;
        Position  pos;
        pos.set(fen, false, &st, Threads.main());
        feature_transformer->Transform(pos, transformed, true);
        std::printf("%s\t%d\n", fen.c_str(), forward());
    }
    std::printf("nnuedump\tdone\n");
    std::fflush(stdout);
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
    if (token == "nnuebench")
        nnue_compare_sf12::bench(is);
    else
        nnue_compare_sf12::dump(is);
}
