/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The two hashes KCFI type ids are made with.  Both run over the whole
 * mangled name, "_ZTS" and any ".normalized" suffix included; the id is the
 * 32-bit FNV-1a value or the low half of XXH64 with seed 0.
 */
#include "config.h"

#include "typeids/typeid.h"

uint32_t kcfi_fnv1a32(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

/* XXH64, from the published algorithm: four accumulators over 32-byte
 * stripes, then 8-, 4- and 1-byte tails, then the final avalanche.  Reads
 * are assembled byte by byte, so the result does not depend on the host's
 * endianness or alignment rules. */

static const uint64_t P1 = 11400714785074694791ull;
static const uint64_t P2 = 14029467366897019727ull;
static const uint64_t P3 = 1609587929392839161ull;
static const uint64_t P4 = 9650029242287828579ull;
static const uint64_t P5 = 2870177450012600261ull;

static uint64_t rotl(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t round64(uint64_t acc, uint64_t lane)
{
	acc += lane * P2;
	return rotl(acc, 31) * P1;
}

static uint64_t merge(uint64_t h, uint64_t acc)
{
	h ^= round64(0, acc);
	return h * P1 + P4;
}

uint64_t kcfi_xxhash64(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data, *end = p + len;
	uint64_t h;

	if (len >= 32) {
		uint64_t a = seed + P1 + P2, b = seed + P2, c = seed, d = seed - P1;
		do {
			a = round64(a, le64(p));
			b = round64(b, le64(p + 8));
			c = round64(c, le64(p + 16));
			d = round64(d, le64(p + 24));
			p += 32;
		} while (end - p >= 32);
		h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
		h = merge(h, a);
		h = merge(h, b);
		h = merge(h, c);
		h = merge(h, d);
	} else {
		h = seed + P5;
	}
	h += (uint64_t)len;

	for (; end - p >= 8; p += 8)
		h = rotl(h ^ round64(0, le64(p)), 27) * P1 + P4;
	if (end - p >= 4) {
		h = rotl(h ^ (uint64_t)le32(p) * P1, 23) * P2 + P3;
		p += 4;
	}
	for (; p < end; p++)
		h = rotl(h ^ *p * P5, 11) * P1;

	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

uint32_t kcfi_hash_bytes(enum kcfi_hash alg, const void *data, size_t len)
{
	if (alg == KCFI_HASH_XXHASH64)
		return (uint32_t)kcfi_xxhash64(data, len, 0);
	return kcfi_fnv1a32(data, len);
}
