#ifndef CDTOA_H
#define CDTOA_H

#include <stddef.h>

/// The most bytes `cdtoa_format` writes ("-2.2250738585072014e-308" is 24).
#define CDTOA_BUFFER_SIZE 32

/// Writes the finite double `value` into `out` (at least CDTOA_BUFFER_SIZE bytes, not terminated) exactly as Swift's
/// `Double.description` prints it, and returns the byte count: the shortest digits that read back as `value`
/// (the closest of those, ties to even), in decimal form ("0.1", "213.33333333333334", "1000000000000000.0") or, below
/// 1e-4 and above 2^53, exponential ("1e-05", "9.007199254740994e+15"). No allocation. NaN and infinities are the
/// caller's (it writes 0 bytes for them).
size_t cdtoa_format(double value, char *out);

/// Writes `value` as JSONValue.writeNumber prints it into `out` (at least CDTOA_BUFFER_SIZE bytes, not terminated)
/// and returns the byte count: `null` for NaN and infinities, a whole number under 1e15 in magnitude as an integer
/// (`-12`, `0` for either zero), anything else as `cdtoa_format` writes it.
size_t cdtoa_json(double value, char *out);

#endif
