// PocketSphinx (Debian 12: 0.8+5prealpha) for Swift. Swift cannot call the variadic cmd_ln_init, so a decoder is made
// from an argument vector here; and the library's own logging is switched off (MediaLint reports, PocketSphinx never
// prints).
#ifndef MEDIALINT_POCKETSPHINX_SHIM_H
#define MEDIALINT_POCKETSPHINX_SHIM_H

#include <stdio.h>
#include <pocketsphinx.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/err.h>
#include <sphinxbase/logmath.h>

/// A decoder configured by `argv` (pairs of "-name", "value"), or NULL when the arguments or the model are bad.
static inline ps_decoder_t *medialint_ps_init(int argc, char **argv) {
    cmd_ln_t *config = cmd_ln_parse_r(NULL, ps_args(), argc, argv, 0);
    if (config == NULL) return NULL;
    ps_decoder_t *decoder = ps_init(config);
    cmd_ln_free_r(config);
    return decoder;
}

/// PocketSphinx and SphinxBase print nothing from here on.
static inline void medialint_ps_quiet(void) {
    err_set_logfp(NULL);
}

#endif
