// The shortest round-trip double printer behind JSONValue.writeNumber (README: "Hand-written: the double printer").
//
// The digits come from the Ryu algorithm (Ulf Adams, "Ryū: fast float-to-string conversion", PLDI 2018): scale the
// value and its two rounding-interval bounds by a 125-bit power of five (dtoa_tables.h, made by scripts/dtoa-tables),
// drop decimal digits while the bounds still differ, and round the last one to the closest (ties to even). That is
// the digit string Swift's SwiftDtoa chooses too; the layout below copies Double.description's (checked against it
// over millions of values by Tests/SegueDaemonTests/DoublePrinterTests.swift).

#include "CDtoa.h"

#include <stdint.h>
#include <string.h>

#include "dtoa_tables.h"

typedef unsigned __int128 u128;

// ceil(log2(5^e)) for e > 0, 1 for e == 0 (valid for 0 <= e <= 3528).
static inline int32_t pow5bits(int32_t e) { return (int32_t)(((uint32_t)e * 1217359) >> 19) + 1; }
// floor(log10(2^e)) for 0 <= e <= 1650.
static inline uint32_t log10Pow2(int32_t e) { return ((uint32_t)e * 78913) >> 18; }
// floor(log10(5^e)) for 0 <= e <= 2620.
static inline uint32_t log10Pow5(int32_t e) { return ((uint32_t)e * 732923) >> 20; }

static inline uint32_t pow5Factor(uint64_t value) {
    uint32_t count = 0;
    while (value % 5 == 0) {
        value /= 5;
        count++;
    }
    return count;
}

static inline int multipleOfPowerOf5(uint64_t value, uint32_t p) { return pow5Factor(value) >= p; }
static inline int multipleOfPowerOf2(uint64_t value, uint32_t p) { return (value & ((1ull << p) - 1)) == 0; }

// (m * mul) >> j for m < 2^55, mul a 128-bit table entry, j >= 64.
static inline uint64_t mulShift64(uint64_t m, const uint64_t *mul, int32_t j) {
    u128 low = (u128)m * mul[0];
    u128 high = (u128)m * mul[1];
    return (uint64_t)(((low >> 64) + high) >> (j - 64));
}

static inline uint32_t decimalLength17(uint64_t v) {
    if (v >= 10000000000000000ull) { return 17; }
    if (v >= 1000000000000000ull) { return 16; }
    if (v >= 100000000000000ull) { return 15; }
    if (v >= 10000000000000ull) { return 14; }
    if (v >= 1000000000000ull) { return 13; }
    if (v >= 100000000000ull) { return 12; }
    if (v >= 10000000000ull) { return 11; }
    if (v >= 1000000000ull) { return 10; }
    if (v >= 100000000ull) { return 9; }
    if (v >= 10000000ull) { return 8; }
    if (v >= 1000000ull) { return 7; }
    if (v >= 100000ull) { return 6; }
    if (v >= 10000ull) { return 5; }
    if (v >= 1000ull) { return 4; }
    if (v >= 100ull) { return 3; }
    if (v >= 10ull) { return 2; }
    return 1;
}

static const char digitPairs[] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Writes the `length` digits of `v` into `out[0..<length]`, last to first: eight at a time in 32-bit halves (short,
// independent dependency chains), then four, two, one.
static inline void writeDigits(uint64_t v, uint32_t length, char *out) {
    char *end = out + length;
    while (v >> 32) {
        const uint64_t q = v / 100000000;
        uint32_t low8 = (uint32_t)(v - q * 100000000);
        v = q;
        const uint32_t c = low8 % 10000;
        low8 /= 10000;
        memcpy(end - 2, digitPairs + (c % 100) * 2, 2);
        memcpy(end - 4, digitPairs + (c / 100) * 2, 2);
        memcpy(end - 6, digitPairs + (low8 % 100) * 2, 2);
        memcpy(end - 8, digitPairs + (low8 / 100) * 2, 2);
        end -= 8;
    }
    uint32_t w = (uint32_t)v;
    while (w >= 10000) {
        const uint32_t c = w % 10000;
        w /= 10000;
        memcpy(end - 2, digitPairs + (c % 100) * 2, 2);
        memcpy(end - 4, digitPairs + (c / 100) * 2, 2);
        end -= 4;
    }
    if (w >= 100) {
        memcpy(end - 2, digitPairs + (w % 100) * 2, 2);
        w /= 100;
        end -= 2;
    }
    if (w >= 10) {
        memcpy(end - 2, digitPairs + w * 2, 2);
    } else {
        end[-1] = (char)('0' + w);
    }
}

size_t cdtoa_format(double value, char *out) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    const int negative = (int)(bits >> 63);
    const uint64_t ieeeMantissa = bits & ((1ull << 52) - 1);
    const uint32_t ieeeExponent = (uint32_t)((bits >> 52) & 0x7ff);
    char *p = out;
    if (ieeeExponent == 0x7ff) {
        return 0;
    }
    if (negative) {
        *p++ = '-';
    }
    if (ieeeExponent == 0 && ieeeMantissa == 0) {
        memcpy(p, "0.0", 3);
        return (size_t)(p + 3 - out);
    }

    // value = m2 * 2^e2, and the digits are worked out for 4 * m2 (room for the half-ulp bounds).
    int32_t e2;
    uint64_t m2;
    if (ieeeExponent == 0) {
        e2 = 1 - 1023 - 52 - 2;
        m2 = ieeeMantissa;
    } else {
        e2 = (int32_t)ieeeExponent - 1023 - 52 - 2;
        m2 = (1ull << 52) | ieeeMantissa;
    }
    const int acceptBounds = (m2 & 1) == 0;
    const uint64_t mv = 4 * m2;
    // The lower bound is a quarter ulp away (not half) at a power of two, where the spacing below is half.
    const uint32_t mmShift = ieeeMantissa != 0 || ieeeExponent <= 1;

    // vr, vp, vm: the value, upper and lower bound, times 10^-e10, truncated.
    uint64_t vr, vp, vm;
    int32_t e10;
    int vmIsTrailingZeros = 0;
    int vrIsTrailingZeros = 0;
    if (e2 >= 0) {
        const uint32_t q = log10Pow2(e2) - (e2 > 3);
        e10 = (int32_t)q;
        const int32_t k = DTOA_POW5_INV_BITCOUNT + pow5bits((int32_t)q) - 1;
        const int32_t i = -e2 + (int32_t)q + k;
        vr = mulShift64(mv, DTOA_POW5_INV[q], i);
        vp = mulShift64(mv + 2, DTOA_POW5_INV[q], i);
        vm = mulShift64(mv - 1 - mmShift, DTOA_POW5_INV[q], i);
        if (q <= 21) {
            // Only values this small can have the exact product end in q zeros.
            if (mv % 5 == 0) {
                vrIsTrailingZeros = multipleOfPowerOf5(mv, q);
            } else if (acceptBounds) {
                vmIsTrailingZeros = multipleOfPowerOf5(mv - 1 - mmShift, q);
            } else {
                vp -= multipleOfPowerOf5(mv + 2, q);
            }
        }
    } else {
        const uint32_t q = log10Pow5(-e2) - (-e2 > 1);
        e10 = (int32_t)q + e2;
        const int32_t i = -e2 - (int32_t)q;
        const int32_t k = pow5bits(i) - DTOA_POW5_BITCOUNT;
        const int32_t j = (int32_t)q - k;
        vr = mulShift64(mv, DTOA_POW5[i], j);
        vp = mulShift64(mv + 2, DTOA_POW5[i], j);
        vm = mulShift64(mv - 1 - mmShift, DTOA_POW5[i], j);
        if (q <= 1) {
            // mv has at least 2 trailing zero bits, so vr's exact value is a whole number.
            vrIsTrailingZeros = 1;
            if (acceptBounds) {
                vmIsTrailingZeros = mmShift == 1;
            } else {
                --vp;
            }
        } else if (q < 63) {
            vrIsTrailingZeros = multipleOfPowerOf2(mv, q);
        }
    }

    // Drop digits while the bounds still differ; round the last dropped one (closest, ties to even).
    int32_t removed = 0;
    uint8_t lastRemovedDigit = 0;
    uint64_t output;
    if (vmIsTrailingZeros || vrIsTrailingZeros) {
        while (vp / 10 > vm / 10) {
            vmIsTrailingZeros &= vm % 10 == 0;
            vrIsTrailingZeros &= lastRemovedDigit == 0;
            lastRemovedDigit = (uint8_t)(vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            ++removed;
        }
        if (vmIsTrailingZeros) {
            while (vm % 10 == 0) {
                vrIsTrailingZeros &= lastRemovedDigit == 0;
                lastRemovedDigit = (uint8_t)(vr % 10);
                vr /= 10;
                vp /= 10;
                vm /= 10;
                ++removed;
            }
        }
        if (vrIsTrailingZeros && lastRemovedDigit == 5 && vr % 2 == 0) {
            lastRemovedDigit = 4;
        }
        output = vr + ((vr == vm && (!acceptBounds || !vmIsTrailingZeros)) || lastRemovedDigit >= 5);
    } else {
        int roundUp = 0;
        if (vp / 100 > vm / 100) {
            roundUp = vr % 100 >= 50;
            vr /= 100;
            vp /= 100;
            vm /= 100;
            removed += 2;
        }
        while (vp / 10 > vm / 10) {
            roundUp = vr % 10 >= 5;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            ++removed;
        }
        output = vr + (vr == vm || roundUp);
    }

    // value = output * 10^exponent; Swift's layout hinges on the scientific exponent and on |value| > 2^53.
    const uint32_t length = decimalLength17(output);
    const int32_t exponent = e10 + removed + (int32_t)length - 1;
    const int aboveTwo53 = ieeeExponent > 1023 + 53 || (ieeeExponent == 1023 + 53 && ieeeMantissa != 0);
    if (exponent < -4 || aboveTwo53) {
        // d[.ddd]e±XX, at least two exponent digits.
        writeDigits(output, length, p + 1);
        p[0] = p[1];
        if (length > 1) {
            p[1] = '.';
            p += length + 1;
        } else {
            p += 1;
        }
        *p++ = 'e';
        int32_t e = exponent;
        if (e < 0) {
            *p++ = '-';
            e = -e;
        } else {
            *p++ = '+';
        }
        if (e >= 100) {
            *p++ = (char)('0' + e / 100);
            e %= 100;
        }
        memcpy(p, digitPairs + e * 2, 2);
        p += 2;
    } else if (exponent < 0) {
        // 0.000ddd (at most 4 zeros here: one fixed-size copy the compiler inlines, not a call to memset per
        // number; the digits overwrite what is past the zeros, within the buffer's 32 bytes)
        const uint32_t zeros = (uint32_t)(-exponent);
        memcpy(p, "00000000", 8);
        p[1] = '.';
        writeDigits(output, length, p + zeros + 1);
        p += zeros + 1 + length;
    } else if ((int32_t)length <= exponent + 1) {
        // ddd000.0
        writeDigits(output, length, p);
        memset(p + length, '0', (size_t)(exponent + 1 - (int32_t)length));
        p += exponent + 1;
        memcpy(p, ".0", 2);
        p += 2;
    } else {
        // ddd.ddd
        const uint32_t whole = (uint32_t)exponent + 1;
        writeDigits(output, length, p + 1);
        memmove(p, p + 1, whole);
        p[whole] = '.';
        p += length + 1;
    }
    return (size_t)(p - out);
}

size_t cdtoa_json(double value, char *out) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    if (((bits >> 52) & 0x7ff) == 0x7ff) {
        memcpy(out, "null", 4);
        return 4;
    }
    // Either zero (a transform's b, c, ty, most of the time): no conversion to test.
    if ((bits << 1) == 0) {
        out[0] = '0';
        return 1;
    }
    // Whole numbers under 1e15 print as integers ("-12", "0" for both zeros): Int64(n) in JSONValue.writeNumber.
    // Below 1 in magnitude (a biased exponent under 1023) a non-zero double has a fraction: no conversion to test.
    if (((bits >> 52) & 0x7ff) >= 1023 && value < 1e15 && value > -1e15) {
        const int64_t whole = (int64_t)value;
        if ((double)whole == value) {
            char *p = out;
            uint64_t magnitude = (uint64_t)whole;
            if (whole < 0) {
                *p++ = '-';
                magnitude = (uint64_t)(-whole);
            }
            // One digit (a transform's 1, a flag): no length to find.
            if (magnitude < 10) {
                *p = (char)('0' + magnitude);
                return (size_t)(p + 1 - out);
            }
            const uint32_t length = decimalLength17(magnitude);
            writeDigits(magnitude, length, p);
            return (size_t)(p + length - out);
        }
    }
    return cdtoa_format(value, out);
}
