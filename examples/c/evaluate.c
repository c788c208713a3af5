/*
 * Loads the net file named on the command line (its architecture found by its header), resets a
 * stack to the start position, pushes 1. e4, evaluates with black to move and prints the
 * result, one "key value" per line. Built and run by nnue-capi/tests/example.rs; see README.md.
 */
#include <stdio.h>

#include "nnue.h"

/* Squares: a1 = 0, b1 = 1, ..., h8 = 63. Pieces: 6 * colour + kind. */
enum { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE = 0, BLACK = 6 };

/* nnue_last_error() says what went wrong (nnue_error_message(code) only what the code means). */
static int fail(const char *what, int code) {
    fprintf(stderr, "%s: error %d: %s\n", what, code, nnue_last_error());
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s NET.nnue\n", argv[0]);
        return 2;
    }
    const nnue_net *net = NULL;
    int code = nnue_net_load_file(argv[1], NULL, NULL, 0, &net);
    if (code != NNUE_OK) return fail("load", code);

    nnue_piece pieces[32];
    size_t n = 0;
    static const unsigned char back[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    for (unsigned char file = 0; file < 8; file++) {
        pieces[n++] = (nnue_piece){.square = file, .piece = WHITE + back[file]};
        pieces[n++] = (nnue_piece){.square = 8 + file, .piece = WHITE + PAWN};
        pieces[n++] = (nnue_piece){.square = 48 + file, .piece = BLACK + PAWN};
        pieces[n++] = (nnue_piece){.square = 56 + file, .piece = BLACK + back[file]};
    }

    nnue_stack *stack = NULL;
    if ((code = nnue_stack_new(net, &stack)) != NNUE_OK) return fail("stack", code);
    if ((code = nnue_stack_reset(stack, pieces, n)) != NNUE_OK) return fail("reset", code);

    /* 1. e4: the pawn leaves e2 (12) and lands on e4 (28). */
    const nnue_change e4 = {.piece = WHITE + PAWN, .from = 12, .to = 28};
    if ((code = nnue_stack_push(stack, &e4, 1)) != NNUE_OK) return fail("push", code);

    nnue_eval eval;
    if ((code = nnue_stack_evaluate(stack, NNUE_BLACK, &eval)) != NNUE_OK) return fail("evaluate", code);

    const char *arch = NULL, *isa = NULL;
    nnue_net_arch_name(net, &arch);
    nnue_net_isa_name(net, &isa);
    printf("arch %s\nisa %s\nbucket %d\npsqt %d\npositional %d\nvalue %d\n", arch, isa, (int)eval.bucket,
           (int)eval.psqt, (int)eval.positional, (int)eval.value);

    nnue_stack_free(stack);
    nnue_net_release(net);
    return 0;
}
