// pelab/training/positional_methods.h — the training lab's positional methods, one row each: the
// enumerator of PositionalKind and the name that --pe, run files and the app use.
//
// A method is one file, core/src/training/positional/<name>.cpp, defining <Enumerator>Method(): the
// parameters it owns and its hooks into the pass (add to the input, turn the queries and keys,
// bias the scores; core/src/training/positional/method.h). Adding a method to the trainer is that
// file and its row here; the gradient checks, the name lists and --pe's help follow from the table
// (the app's colour, marker and tab come from its own row, app/panels/methods.cpp). The core's
// CMakeLists takes every file of core/src/training/positional/.
#pragma once

// X(Enumerator, "name", in the default run), in the order the lab shows them. The default run
// (`pelab train` without --pe, the Train panel's first ticks, the built-in runs) trains the
// methods marked true; the others are there to be chosen.
#define PELAB_POSITIONAL_METHODS(X)                                                                \
    X(None, "none", true)                                                                          \
    X(Sinusoidal, "sinusoidal", true)                                                              \
    X(Learned, "learned", true)                                                                    \
    X(Rope, "rope", true)                                                                          \
    X(Alibi, "alibi", true)                                                                        \
    X(T5, "t5", true)                                                                              \
    X(RopeHalf, "rope_half", false)                                                                \
    X(RopeCrossed, "rope_crossed", false)                                                          \
    X(RopePartial, "rope_partial", false)                                                          \
    X(PRope, "p_rope", false)                                                                      \
    X(Xpos, "xpos", false)                                                                         \
    X(Irope, "irope", false)                                                                       \
    X(Cope, "cope", false)                                                                         \
    X(Kerple, "kerple", false)                                                                     \
    X(Fire, "fire", false)                                                                         \
    X(AlibiLearned, "alibi_learned", false)
