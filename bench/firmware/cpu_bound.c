// A long CPU-bound program for the simulation-speed benchmark (about 30 M cycles on the
// CV32E40P timing): CRC-32 over a buffer, a small integer matrix multiplication and a
// division mix, repeated. Exits with 0 when the final checksum is consistent across rounds.
#include <stdint.h>

void put_str(const char* s);
void put_hex(uint32_t v);

#define ROUNDS 220
#define N 16

static uint8_t buffer[1024];
static int32_t a[N][N], b[N][N], c[N][N];

static uint32_t crc32(const uint8_t* p, uint32_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

static uint32_t matmul(void) {
  uint32_t sum = 0;
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) {
      int32_t acc = 0;
      for (int k = 0; k < N; ++k) acc += a[i][k] * b[k][j];
      c[i][j] = acc;
      sum += (uint32_t)acc;
    }
  }
  return sum;
}

static uint32_t divmix(uint32_t seed) {
  uint32_t acc = 0;
  for (uint32_t i = 1; i < 200; ++i) {
    seed = seed * 1664525u + 1013904223u;
    acc += seed / i + (uint32_t)((int32_t)seed % (int32_t)(i | 1));
  }
  return acc;
}

int main(void) {
  uint32_t x = 1;
  for (unsigned i = 0; i < sizeof buffer; ++i) {
    x = x * 1103515245u + 12345u;
    buffer[i] = (uint8_t)(x >> 16);
  }
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) {
      a[i][j] = i - j;
      b[i][j] = i * j + 1;
    }
  }
  uint32_t first = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    uint32_t check = crc32(buffer, sizeof buffer) ^ matmul() ^ divmix(7);
    if (r == 0) first = check;
    if (check != first) {
      put_str("cpu_bound: inconsistent checksum\n");
      return 1;
    }
  }
  put_str("cpu_bound: checksum ");
  put_hex(first);
  put_str("\n");
  return 0;
}
