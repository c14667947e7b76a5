/* Float kernels for the FPU comparison (docs/fpu.md): the same C source compiled for soft float
   (rv32imc, ilp32: libgcc's routines) and for the CV32E40P's FPU (rv32imfc, ilp32f), each
   kernel timed with mcycle and printed as "name cycles". Runs on rv_harness with the timing
   suite's start-up (tests/timing/crt.S); the results are summed into a checksum that both
   builds must print alike (the arithmetic is IEEE binary32 either way). */
#include <stdint.h>

void put_str(const char* s);
void put_dec(uint32_t v);
void put_hex(uint32_t v);
void put_char(char c);
void exit_with(uint32_t value) __attribute__((noreturn));

#define N 1024
#define H 16
#define W 16
#define C 8
#define K 8

static float a[N], b[N], y[N];
static float image[C][H + 2][W + 2], weights[K][C][3][3], out[K][H][W];

static inline uint32_t mcycle(void) {
  uint32_t v;
  __asm__ volatile("csrr %0, mcycle" : "=r"(v));
  return v;
}

static void report(const char* name, uint32_t cycles) {
  put_str(name);
  put_char(' ');
  put_dec(cycles);
  put_char('\n');
}

static uint32_t bits(float f) {
  union { float f; uint32_t u; } v = {f};
  return v.u;
}

__attribute__((noinline)) static void add(void) {
  for (int i = 0; i < N; ++i) y[i] = a[i] + b[i];
}

__attribute__((noinline)) static float dot(void) {
  float s = 0.0f;
  for (int i = 0; i < N; ++i) s += a[i] * b[i];
  return s;
}

__attribute__((noinline)) static void conv3x3(void) {
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < H; ++i)
      for (int j = 0; j < W; ++j) {
        float s = 0.0f;
        for (int c = 0; c < C; ++c)
          for (int u = 0; u < 3; ++u)
            for (int v = 0; v < 3; ++v) s += image[c][i + u][j + v] * weights[k][c][u][v];
        out[k][i][j] = s > 0.0f ? s : 0.0f;
      }
}

__attribute__((noinline)) static void normalise(void) {
  float sum = 0.0f;
  for (int i = 0; i < N; ++i) sum += y[i] * y[i];
  const float inv = 1.0f / (sum + 1.0f);
  for (int i = 0; i < N; ++i) y[i] = y[i] * inv;
  for (int i = 0; i < N; ++i) y[i] = y[i] / (a[i] + 2.0f);
}

__attribute__((noinline)) static void dequantise(const int8_t* q, float scale, int zero) {
  for (int i = 0; i < N; ++i) y[i] = (float)(q[i] - zero) * scale;
}

static int8_t quantised[N];

void test_main(void) {
  /* mstatus.FS resets to Off: float instructions are illegal until it is set (harmless
     without an FPU). */
  __asm__ volatile("csrs mstatus, %0" : : "r"(0x2000) : "memory");
  __asm__ volatile("csrw mcountinhibit, zero");
  uint32_t seed = 12345;
  for (int i = 0; i < N; ++i) {
    seed = seed * 1664525u + 1013904223u;
    a[i] = (float)(int32_t)(seed >> 8) * (1.0f / 8388608.0f);
    b[i] = (float)(int32_t)(seed & 0xFFFF) * (1.0f / 65536.0f) - 0.5f;
    quantised[i] = (int8_t)(seed >> 24);
  }
  for (int c = 0; c < C; ++c)
    for (int i = 0; i < H + 2; ++i)
      for (int j = 0; j < W + 2; ++j) image[c][i][j] = a[(c * 331 + i * 17 + j) % N];
  for (int k = 0; k < K; ++k)
    for (int c = 0; c < C; ++c)
      for (int u = 0; u < 3; ++u)
        for (int v = 0; v < 3; ++v) weights[k][c][u][v] = b[(k * 97 + c * 9 + u * 3 + v) % N];
  uint32_t t, checksum = 0;
  t = mcycle();
  add();
  report("add_1024", mcycle() - t);
  checksum += bits(y[17]);
  t = mcycle();
  const float d = dot();
  report("dot_1024", mcycle() - t);
  checksum += bits(d);
  t = mcycle();
  conv3x3();
  report("conv3x3_8x16x16x8", mcycle() - t);
  checksum += bits(out[3][5][7]);
  t = mcycle();
  normalise();
  report("normalise_1024", mcycle() - t);
  checksum += bits(y[100]);
  t = mcycle();
  dequantise(quantised, 0.0125f, 3);
  report("dequantise_1024", mcycle() - t);
  checksum += bits(y[999]);
  put_str("checksum ");
  put_hex(checksum);
  put_char('\n');
  exit_with(0);
}
