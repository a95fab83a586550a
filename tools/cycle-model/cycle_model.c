// A QEMU 7.2 TCG plugin that counts modeled cycles beside instructions: it
// decodes every translated instruction (Thumb-2 with DSP, FP and MVE;
// RV32IMAC) into a timing class and charges it the cycles that the core's
// published timings give, zero-wait-state memory assumed. docs/performance.md
// says what each core's model includes and leaves out.
//
//   -plugin file=libcycle_model.so,cpu=CPU[,begin=ADDR,end=ADDR] -d plugin
//
// CPU is a board's FFI_CORE_BOARD_CPU (cortex-m0plus, cortex-m3, cortex-m4f,
// cortex-m7, cortex-m33, cortex-m55, rv32imac, rv32imc). With begin and end
// (code addresses, as nm prints them) each run from begin's entry to end's
// prints one line "cycle-model: region K: C cycles, I instructions"; the
// totals print at exit. With profile=FILE (and region=K: only region K's
// runs), each instruction's address, runs and cycles go to FILE at exit, a
// line each ("ADDR RUNS CYCLES", one line per translation): where the
// cycles go, which scripts/cycle-profile.py maps onto functions and lines.
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The few pieces of QEMU 7.2's include/qemu/qemu-plugin.h (API version 1)
// this plugin uses; Debian ships no header for them.
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t {
  const char* target_name;
  struct {
    int min;
    int cur;
  } version;
  bool system_emulation;
  union {
    struct {
      int smp_vcpus;
      int max_vcpus;
    } system;
  };
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void* userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb* tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void* userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb* tb);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb* tb, size_t idx);
const void* qemu_plugin_insn_data(const struct qemu_plugin_insn* insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn* insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn* insn);
void qemu_plugin_outs(const char* string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;
__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t* info, int argc,
                                                               char** argv);

// Timing classes. A branch's refill is charged when the next block shows it
// was taken.
enum Class {
  kAlu,
  kMul,         // MUL, MULS
  kMla,         // MLA, MLS
  kMull,        // SMULL, UMULL
  kMlal,        // SMLAL, UMLAL, UMAAL, SMLALD, SMLSLD, SMLAL<x><y>
  kDspMac,      // SMLAD, SMUAD, SMLA<x><y>, SMMLA, USADA8 and the like
  kDiv,         // SDIV, UDIV
  kLoad,        // a single load (LDR, LDRB, LDREX, PLD...)
  kStoreImm,    // a single store with an immediate offset
  kStoreReg,    // a single store with a register offset
  kLoadDual,    // LDRD
  kStoreDual,   // STRD
  kLoadMulti,   // LDM, POP (n registers)
  kStoreMulti,  // STM, PUSH (n registers)
  kLoadPc,      // LDR PC, LDM/POP with PC (n registers)
  kTableBranch,
  kBranch,     // B, B<cond>, CBZ, WLS
  kCall,       // BL
  kBranchReg,  // BX, BLX, MOV/ADD PC
  kLoopEnd,    // LE, LETP
  kSys,        // MSR, MRS
  kBarrier,    // DMB, DSB
  kIsb,
  kFp,       // VADD, VMUL, VCVT, VMOV...
  kFpMac,    // VMLA, VFMA and their negations
  kFpDiv,    // VDIV, VSQRT
  kFpLoad,   // VLDR, VSTR
  kFpMulti,  // VLDM, VSTM, VPUSH, VPOP (n words)
  kMveMem,   // MVE loads and stores
  kMveOp,    // every other MVE instruction
  // RV32IMAC
  kRvLoadWord,
  kRvLoadSub,
  kRvStore,
  kRvMul,
  kRvDiv,
  kRvCsr,
  kRvBranch,
  kRvJal,
  kRvJalr,
  kNumClasses
};

typedef struct Insn {
  uint8_t cls;
  uint8_t n;    // registers or words moved by a multiple transfer
  uint8_t rd;   // the destination (Arm: a load's; 0xff none)
  uint8_t rs1;  // RISC-V: the sources
  uint8_t rs2;
  uint16_t addr;    // Arm: the registers a load or store's address reads
  uint16_t writes;  // Arm: the registers a data-processing instruction writes
  uint64_t vaddr;   // RISC-V branches: where the predictor keys them
  uint64_t runs;    // profile=: the instruction's runs and cycles
  uint64_t cycles;
} Insn;

typedef struct Block {
  struct Block* next;  // every translation, for profile='s report
  uint64_t vaddr;
  uint64_t fallthrough;
  size_t n;
  Insn insns[];
} Block;

typedef struct Core {
  const char* name;
  bool riscv;
  uint8_t cost[kNumClasses];
  uint8_t refill;       // a taken branch: P
  uint8_t refill_call;  // BL's refill
  uint8_t refill_load;  // a load or table branch to the PC
  // RISC-V's cost[] is the issue cycle, refill the misprediction penalty.
  // The M3/M4 TRM's load/store timings: a load or store after a load takes
  // one cycle less, one whose address the instruction before computed one more.
  bool load_store_rules;
  bool mve_overlap;  // M55: an MVE instruction overlaps one of the other kind
} Core;

// What the Armv7-M and Armv8-M mainline models share (a load's, a store's
// and a multiply's timings differ, so each core gives them). ISB: 1 + P.
#define MAINLINE_COMMON                                                                        \
  [kAlu] = 1, [kMul] = 1, [kDiv] = 12, [kStoreImm] = 1, [kLoadMulti] = 1, [kStoreMulti] = 1,   \
  [kLoadPc] = 1, [kTableBranch] = 3, [kBranch] = 1, [kCall] = 1, [kBranchReg] = 1, [kSys] = 2, \
  [kBarrier] = 1, [kIsb] = 3, [kFp] = 1, [kFpMac] = 3, [kFpDiv] = 14, [kFpMulti] = 1,          \
  [kDspMac] = 1
// The M3/M4 TRM's load and store timings.
#define TWO_CYCLE_LOADS \
  [kLoad] = 2, [kStoreReg] = 2, [kLoadDual] = 3, [kStoreDual] = 3, [kFpLoad] = 2
// The M7's and M55's pipelined load-store units.
#define ONE_CYCLE_LOADS \
  [kLoad] = 1, [kStoreReg] = 1, [kLoadDual] = 1, [kStoreDual] = 1, [kFpLoad] = 1
#define SINGLE_CYCLE_MULTIPLY [kMla] = 1, [kMull] = 1, [kMlal] = 1

// Cortex-M3/M4 TRM "Processor instruction timings" (DDI 0337, DDI 0439):
// P ranges 1 to 3, taken as 2; loads and TBB/TBH to the PC refill in 3
// ("Load/store timings", which also puts TBB/TBH at six with that refill);
// early-terminating multiplies and divides at the worst of their ranges
// (UDIV/SDIV 2-12, M3 SMULL 3-5, SMLAL 4-7). The M4 FPU's VMLA/VFMA 3,
// VDIV/VSQRT 14, VLDR 2, VLDM 1+N (DDI 0439 table 7-1). The M33 TRM publishes
// no table: it takes the M4's. The M7 and M55 publish none either: single
// issue, loads and stores at one per cycle. MVE on the dual-beat M55: four
// beats in two cycles, one cycle when it overlaps an instruction of the
// other kind (memory against arithmetic), the LE of a cached loop free.
static const Core kCores[] = {
    // Cortex-M0+ TRM table 3-1 (single-cycle multiplier): loads and stores 2,
    // B taken 2, BL 3, BX 2, POP {PC} 3+N, MSR/MRS 3, barriers 3.
    {.name = "cortex-m0plus",
     .cost = {[kAlu] = 1,
              [kMul] = 1,
              [kLoad] = 2,
              [kStoreImm] = 2,
              [kStoreReg] = 2,
              [kLoadMulti] = 1,
              [kStoreMulti] = 1,
              [kLoadPc] = 1,
              [kBranch] = 1,
              [kCall] = 1,
              [kBranchReg] = 1,
              [kSys] = 3,
              [kBarrier] = 3,
              [kIsb] = 3},
     .refill = 1,
     .refill_call = 2,
     .refill_load = 2},
    {.name = "cortex-m3",
     .cost = {MAINLINE_COMMON, TWO_CYCLE_LOADS, [kMla] = 2, [kMull] = 5, [kMlal] = 7},
     .refill = 2,
     .refill_call = 2,
     .refill_load = 3,
     .load_store_rules = true},
    {.name = "cortex-m4f",
     .cost = {MAINLINE_COMMON, TWO_CYCLE_LOADS, SINGLE_CYCLE_MULTIPLY},
     .refill = 2,
     .refill_call = 2,
     .refill_load = 3,
     .load_store_rules = true},
    {.name = "cortex-m33",
     .cost = {MAINLINE_COMMON, TWO_CYCLE_LOADS, SINGLE_CYCLE_MULTIPLY},
     .refill = 2,
     .refill_call = 2,
     .refill_load = 3,
     .load_store_rules = true},
    {.name = "cortex-m7",
     .cost = {MAINLINE_COMMON, ONE_CYCLE_LOADS, SINGLE_CYCLE_MULTIPLY},
     .refill = 2,
     .refill_call = 2,
     .refill_load = 3},
    {.name = "cortex-m55",
     .cost = {MAINLINE_COMMON, ONE_CYCLE_LOADS, SINGLE_CYCLE_MULTIPLY, [kMveMem] = 2, [kMveOp] = 2},
     .refill = 2,
     .refill_call = 2,
     .refill_load = 3,
     .mve_overlap = true},
    // SiFive E31 Core Complex Manual, "Execution Pipeline": one instruction a
    // cycle, fully bypassed; result latencies LW 2, LH/LB 3, CSR reads 3, MUL
    // 5, DIV/REM 2-33 (taken as 33), one multiply or divide at a time;
    // mispredicted control flow 3 ("Instruction Fetch Unit"). The latencies
    // are RunRv's.
    {.name = "rv32imac",
     .riscv = true,
     .cost = {[kAlu] = 1,
              [kRvLoadWord] = 1,
              [kRvLoadSub] = 1,
              [kRvStore] = 1,
              [kRvMul] = 1,
              [kRvDiv] = 1,
              [kRvCsr] = 1,
              [kRvBranch] = 1,
              [kRvJal] = 1,
              [kRvJalr] = 1},
     .refill = 3},
};

static const Core* g_core;
static uint64_t g_begin = UINT64_MAX;
static uint64_t g_end = UINT64_MAX;

// What execution has reached (one vCPU: the boards have one core).
static uint64_t g_cycles;
static uint64_t g_insns;
static Block* g_prev_block;
static Insn g_prev = {.cls = kAlu, .rd = 0xff};
static uint64_t g_region_cycles;
static uint64_t g_region_insns;
static unsigned g_regions;
static bool g_in_region;  // between a begin and its end

// profile=: every translation, to report at exit; which region (0: all).
static const char* g_profile_path;
static unsigned g_profile_region;
static Block* g_blocks;
static bool g_prev_profiled;  // whether the block before was counted

// RISC-V: when each register's value is ready, and when the multiply/divide
// unit frees, in g_cycles' time.
static uint64_t g_ready[32];
static uint64_t g_mdu_free;
// RISC-V branch prediction, keyed by address: a 2-bit direction counter and
// the last target of an indirect jump.
#define PREDICTOR_SLOTS 4096
static uint8_t g_bht[PREDICTOR_SLOTS];
static uint64_t g_btb[PREDICTOR_SLOTS];

static unsigned PopCount(uint32_t v) { return (unsigned)__builtin_popcount(v); }

static Insn Make(int cls) {
  Insn i = {.cls = (uint8_t)cls, .rd = 0xff};
  return i;
}

static Insn MakeMem(int cls, unsigned rt, uint16_t addr) {
  Insn i = Make(cls);
  i.rd = (uint8_t)rt;
  i.addr = addr;
  return i;
}

static Insn MakeMulti(int cls, unsigned n, unsigned base) {
  Insn i = MakeMem(cls, 0xff, (uint16_t)(1u << base));
  i.n = (uint8_t)n;
  return i;
}

// A data-processing instruction writing rd (15: none, as CMP's or TST's).
static Insn MakeDp(int cls, unsigned rd) {
  Insn i = Make(cls);
  i.writes = rd == 15 ? 0 : (uint16_t)(1u << rd);
  return i;
}

static Insn DecodeThumb16(uint32_t hw) {
  const unsigned lo3 = hw & 7, mid3 = (hw >> 3) & 7;
  if ((hw & 0xE000) == 0x0000) return MakeDp(kAlu, lo3);  // shifts, ADD, SUB
  if ((hw & 0xE000) == 0x2000) {                          // MOV, CMP, ADD, SUB immediate
    return MakeDp(kAlu, ((hw >> 11) & 3) == 1 ? 15 : (hw >> 8) & 7);
  }
  if ((hw & 0xFC00) == 0x4000) {
    const unsigned op = (hw >> 6) & 0xF;
    if (op == 0xD) return MakeDp(kMul, lo3);
    return MakeDp(kAlu, op == 0x8 || op == 0xA || op == 0xB ? 15 : lo3);  // TST, CMP, CMN
  }
  if ((hw & 0xFC00) == 0x4400) {  // hi-register ADD, CMP, MOV; BX, BLX
    const unsigned op = (hw >> 8) & 3, rd = (hw & 7) | ((hw >> 4) & 8);
    if (op == 3 || (op != 1 && rd == 15)) return Make(kBranchReg);
    return MakeDp(kAlu, op == 1 ? 15 : rd);
  }
  if ((hw & 0xF800) == 0x4800) return MakeMem(kLoad, (hw >> 8) & 7, 1u << 15);
  if ((hw & 0xF000) == 0x5000) {
    const uint16_t addr = (uint16_t)((1u << mid3) | (1u << ((hw >> 6) & 7)));
    return ((hw >> 9) & 7) < 3 ? MakeMem(kStoreReg, 0xff, addr) : MakeMem(kLoad, lo3, addr);
  }
  if ((hw & 0xE000) == 0x6000 || (hw & 0xF000) == 0x8000) {
    return (hw & 0x0800) ? MakeMem(kLoad, lo3, (uint16_t)(1u << mid3))
                         : MakeMem(kStoreImm, 0xff, (uint16_t)(1u << mid3));
  }
  if ((hw & 0xF000) == 0x9000) {
    return (hw & 0x0800) ? MakeMem(kLoad, (hw >> 8) & 7, 1u << 13)
                         : MakeMem(kStoreImm, 0xff, 1u << 13);
  }
  if ((hw & 0xF000) == 0xA000) return MakeDp(kAlu, (hw >> 8) & 7);                   // ADR, ADD SP
  if ((hw & 0xFF00) == 0xB000) return MakeDp(kAlu, 13);                              // ADD, SUB SP
  if ((hw & 0xFF00) == 0xB200 || (hw & 0xFF00) == 0xBA00) return MakeDp(kAlu, lo3);  // extend, REV
  if ((hw & 0xF500) == 0xB100) return Make(kBranch);                                 // CBZ, CBNZ
  if ((hw & 0xFE00) == 0xB400) return MakeMulti(kStoreMulti, PopCount(hw & 0x1FF), 13);
  if ((hw & 0xFE00) == 0xBC00) {
    return MakeMulti((hw & 0x100) ? kLoadPc : kLoadMulti, PopCount(hw & 0x1FF), 13);
  }
  if ((hw & 0xF000) == 0xC000) {
    return MakeMulti((hw & 0x0800) ? kLoadMulti : kStoreMulti, PopCount(hw & 0xFF), (hw >> 8) & 7);
  }
  if ((hw & 0xF000) == 0xD000) return Make(((hw >> 9) & 7) == 7 ? kAlu : kBranch);  // UDF, SVC
  if ((hw & 0xF800) == 0xE000) return Make(kBranch);
  return Make(kAlu);
}

// The coprocessor space: scalar FP (coprocessors 10, 11) and MVE.
static Insn DecodeCoprocessor(uint32_t h1, uint32_t h2) {
  const unsigned coproc = (h2 >> 8) & 0xF;
  const bool transfer = (h1 & 0xEE00) == 0xEC00;     // LDC/STC/MCRR form
  if ((h1 & 0xEF00) == 0xEF00) return Make(kMveOp);  // the Advanced SIMD form
  if (coproc == 0xA || coproc == 0xB) {
    if (transfer) {
      if ((h1 & 0xFFE0) == 0xEC40) return Make(kFp);  // VMOV two core registers
      // VLDR/VSTR: P=1, W=0; else VLDM/VSTM/VPUSH/VPOP of imm8 words.
      if ((h1 & 0x0120) == 0x0100) return MakeMem(kFpLoad, 0xff, (uint16_t)(1u << (h1 & 0xF)));
      return MakeMulti(kFpMulti, h2 & 0xFF, h1 & 0xF);
    }
    if (h2 & 0x0010) return Make(kFp);  // VMOV core register, VMRS, VMSR
    const unsigned opc = ((h1 >> 4) & 0xB);
    if (opc == 0x0 || opc == 0x1 || opc == 0x9 || opc == 0xA) return Make(kFpMac);
    if (opc == 0x8) return Make(kFpDiv);
    if (opc == 0xB && (h1 & 0xF) == 0x1 && (h2 & 0xC0) == 0xC0) return Make(kFpDiv);  // VSQRT
    return Make(kFp);
  }
  if (coproc == 0xE || coproc == 0xF) {
    return Make(transfer && (h1 & 0xFFE0) != 0xEC40 ? kMveMem : kMveOp);
  }
  return Make(kAlu);
}

static Insn DecodeThumb32(uint32_t h1, uint32_t h2) {
  const unsigned rn = h1 & 0xF, rt = h2 >> 12, rd = (h2 >> 8) & 0xF;
  if ((h1 & 0xFE40) == 0xE800) {  // LDM, STM, PUSH.W, POP.W
    const unsigned n = PopCount(h2 & 0xDFFF);
    if (h1 & 0x0010) return MakeMulti((h2 & 0x8000) ? kLoadPc : kLoadMulti, n, rn);
    return MakeMulti(kStoreMulti, n, rn);
  }
  if ((h1 & 0xFE40) == 0xE840) {  // dual, exclusive, table branch
    if ((h1 & 0xFFF0) == 0xE8D0 && (h2 & 0xFFE0) == 0xF000) return Make(kTableBranch);
    const bool exclusive_word = (h1 & 0xFFE0) == 0xE840;
    const bool exclusive_small = (h1 & 0xFFE0) == 0xE8C0;
    if (exclusive_word || exclusive_small) {
      // The TRM pipelines LDREX and STREX as LDR; LDA/STL likewise.
      return MakeMem(kLoad, (h1 & 0x0010) ? rt : 0xff, (uint16_t)(1u << rn));
    }
    return MakeMem((h1 & 0x0010) ? kLoadDual : kStoreDual, 0xff, (uint16_t)(1u << rn));
  }
  if ((h1 & 0xFE00) == 0xEA00) return MakeDp(kAlu, rd);  // shifted register, MVE long shifts
  if ((h1 & 0xEC00) == 0xEC00) return DecodeCoprocessor(h1, h2);
  if ((h1 & 0xF800) == 0xF000 && (h2 & 0x8000)) {  // branches, misc control
    switch (h2 & 0xD000) {
      case 0xD000:
        return Make(kCall);
      case 0x9000:
        return Make(kBranch);
      case 0xC000:  // Armv8.1-M low-overhead loops
        if ((h2 & 0xF001) == 0xC001) return Make((h1 & 0xF) == 0xF ? kLoopEnd : kBranch);
        return Make(kAlu);  // DLS, DLSTP, the branch-future hints
      default:
        break;
    }
    if (((h1 >> 6) & 0xE) != 0xE) return Make(kBranch);
    if ((h1 & 0xFFE0) == 0xF380 || (h1 & 0xFFE0) == 0xF3E0) return Make(kSys);
    if (h1 == 0xF3BF) return Make(((h2 >> 4) & 0xF) == 6 ? kIsb : kBarrier);
    return Make(kAlu);
  }
  if ((h1 & 0xF800) == 0xF000) return MakeDp(kAlu, rd);  // data processing, immediate
  if ((h1 & 0xFE00) == 0xF800) {                         // single loads and stores
    const bool reg_offset = (h1 & 0x0080) == 0 && (h2 & 0x0FC0) == 0 && rn != 15;
    const uint16_t addr = (uint16_t)((1u << rn) | (reg_offset ? 1u << (h2 & 0xF) : 0));
    if (h1 & 0x0010) {
      if (rt == 15) {
        return ((h1 >> 5) & 3) == 2 ? MakeMulti(kLoadPc, 1, rn) : MakeMem(kLoad, 0xff, addr);
      }
      return MakeMem(kLoad, rt, addr);
    }
    return MakeMem(reg_offset ? kStoreReg : kStoreImm, 0xff, addr);
  }
  if ((h1 & 0xFF00) == 0xFA00) return MakeDp(kAlu, rd);  // data processing, register
  if ((h1 & 0xFF80) == 0xFB00) {                         // multiply, multiply-accumulate
    if (((h1 >> 4) & 7) == 0) return MakeDp(((h2 >> 4) & 3) == 0 && rt == 15 ? kMul : kMla, rd);
    return MakeDp(kDspMac, rd);
  }
  if ((h1 & 0xFF80) == 0xFB80) {  // long multiply, divide
    const unsigned op = (h1 >> 4) & 7;
    if (op == 1 || op == 3) return MakeDp(kDiv, rd);
    Insn i = MakeDp(op == 0 || op == 2 ? kMull : kMlal, rd);
    i.writes |= (uint16_t)(1u << rt);  // RdLo
    return i;
  }
  return Make(kAlu);
}

static Insn DecodeArm(const uint8_t* p, size_t size) {
  const uint32_t h1 = p[0] | (uint32_t)p[1] << 8;
  if (size == 2) return DecodeThumb16(h1);
  return DecodeThumb32(h1, p[2] | (uint32_t)p[3] << 8);
}

static Insn MakeRv(int cls, unsigned rd, unsigned rs1, unsigned rs2) {
  Insn i = Make(cls);
  i.rd = (uint8_t)rd;
  i.rs1 = (uint8_t)rs1;
  i.rs2 = (uint8_t)rs2;
  return i;
}

static Insn DecodeRv32(uint32_t w) {
  const unsigned rd = (w >> 7) & 31, rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31;
  const unsigned f3 = (w >> 12) & 7;
  switch (w & 0x7F) {
    case 0x37:  // LUI
    case 0x17:  // AUIPC
      return MakeRv(kAlu, rd, 0, 0);
    case 0x6F:
      return MakeRv(kRvJal, rd, 0, 0);
    case 0x67:
      return MakeRv(kRvJalr, rd, rs1, 0);
    case 0x63:
      return MakeRv(kRvBranch, 0, rs1, rs2);
    case 0x03:
      return MakeRv(f3 == 2 ? kRvLoadWord : kRvLoadSub, rd, rs1, 0);
    case 0x23:
      return MakeRv(kRvStore, 0, rs1, rs2);
    case 0x13:
      return MakeRv(kAlu, rd, rs1, 0);
    case 0x33:
      if ((w >> 25) == 1) return MakeRv(f3 < 4 ? kRvMul : kRvDiv, rd, rs1, rs2);
      return MakeRv(kAlu, rd, rs1, rs2);
    case 0x2F:  // LR, SC, AMOs: a word load's latency
      return MakeRv(kRvLoadWord, rd, rs1, rs2);
    case 0x73:
      if (f3 != 0) return MakeRv(kRvCsr, rd, f3 < 4 ? rs1 : 0, 0);
      return MakeRv(kAlu, 0, 0, 0);
    default:
      return MakeRv(kAlu, 0, 0, 0);
  }
}

static Insn DecodeRvc(uint32_t h) {
  const unsigned f3 = h >> 13, r = (h >> 7) & 31, r2 = (h >> 2) & 31;
  const unsigned rp = ((h >> 7) & 7) + 8, rp2 = ((h >> 2) & 7) + 8;
  switch (h & 3) {
    case 0:
      if (f3 == 2) return MakeRv(kRvLoadWord, rp2, rp, 0);  // C.LW
      if (f3 == 6) return MakeRv(kRvStore, 0, rp, rp2);     // C.SW
      return MakeRv(kAlu, rp2, 2, 0);                       // C.ADDI4SPN
    case 1:
      switch (f3) {
        case 1:
          return MakeRv(kRvJal, 1, 0, 0);  // C.JAL
        case 4:
          return MakeRv(kAlu, rp, rp, ((h >> 10) & 3) == 3 ? rp2 : 0);
        case 5:
          return MakeRv(kRvJal, 0, 0, 0);  // C.J
        case 6:
        case 7:
          return MakeRv(kRvBranch, 0, rp, 0);  // C.BEQZ, C.BNEZ
        default:
          return MakeRv(kAlu, r, f3 == 0 ? r : 0, 0);  // C.ADDI, C.LI, C.LUI, C.ADDI16SP
      }
    default:
      if (f3 == 2) return MakeRv(kRvLoadWord, r, 2, 0);  // C.LWSP
      if (f3 == 6) return MakeRv(kRvStore, 0, 2, r2);    // C.SWSP
      if (f3 == 4) {
        const bool bit12 = (h >> 12) & 1;
        if (r2 == 0 && r != 0) return MakeRv(kRvJalr, bit12 ? 1 : 0, r, 0);  // C.JR, C.JALR
        return MakeRv(kAlu, r, bit12 ? r : 0, r2);                           // C.MV, C.ADD
      }
      return MakeRv(kAlu, r, r, 0);  // C.SLLI
  }
}

static Insn DecodeRv(const uint8_t* p, size_t size) {
  const uint32_t lo = p[0] | (uint32_t)p[1] << 8;
  if (size == 2) return DecodeRvc(lo);
  return DecodeRv32(lo | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static unsigned ArmCost(const Insn* i, const Insn* prev) {
  unsigned c = g_core->cost[i->cls];
  switch (i->cls) {
    case kLoadMulti:
    case kStoreMulti:
    case kLoadPc:
    case kFpMulti:
      c += i->n;
      break;
    case kLoad:
    case kStoreReg:
      // An LDR pipelines the next load or store unless that one's address
      // needs the loaded register.
      if (g_core->load_store_rules && prev->cls == kLoad &&
          (prev->rd == 0xff || !(i->addr & (1u << prev->rd)))) {
        c -= 1;
      }
      break;
    case kMveMem:
    case kMveOp:
      if (g_core->mve_overlap && (prev->cls == kMveMem || prev->cls == kMveOp) &&
          prev->cls != i->cls) {
        c -= 1;
      }
      break;
    default:
      break;
  }
  // An address the instruction before computed: no forwarding path.
  if (g_core->load_store_rules && (i->addr & prev->writes)) c += 1;
  return c;
}

static bool IsArmBranch(int cls) {
  return cls == kBranch || cls == kCall || cls == kBranchReg || cls == kLoadPc ||
         cls == kTableBranch || cls == kLoopEnd;
}

// The refill (Arm) or misprediction (RISC-V) of the block that ran before,
// now that the next one shows where its last instruction went.
static void SettleBranch(uint64_t next) {
  const Block* b = g_prev_block;
  if (b == NULL || b->n == 0) return;
  const Insn* last = &b->insns[b->n - 1];
  const bool taken = next != b->fallthrough;
  if (!g_core->riscv) {
    if (!IsArmBranch(last->cls)) return;
    if (last->cls == kLoopEnd) {
      g_cycles += taken ? 0 : 1;  // the loop cache replays the loop; leaving costs the LE
    } else if (taken) {
      g_cycles += last->cls == kCall                                  ? g_core->refill_call
                  : last->cls == kLoadPc || last->cls == kTableBranch ? g_core->refill_load
                                                                      : g_core->refill;
    }
    return;
  }
  const size_t slot = (last->vaddr >> 1) % PREDICTOR_SLOTS;
  bool mispredicted = false;
  if (last->cls == kRvBranch) {
    uint8_t* counter = &g_bht[slot];
    mispredicted = (*counter >= 2) != taken;
    if (taken && *counter < 3) ++*counter;
    if (!taken && *counter > 0) --*counter;
  } else if (last->cls == kRvJalr) {
    const bool is_return = last->rd == 0 && (last->rs1 == 1 || last->rs1 == 5);
    mispredicted = !is_return && g_btb[slot] != next;
    g_btb[slot] = next;
  }
  if (mispredicted) g_cycles += g_core->refill;
}

static void RunRv(const Insn* i) {
  static const uint8_t kLatency[kNumClasses] = {
      [kAlu] = 1,    [kRvLoadWord] = 2, [kRvLoadSub] = 3, [kRvStore] = 1, [kRvMul] = 5,
      [kRvDiv] = 33, [kRvCsr] = 3,      [kRvBranch] = 1,  [kRvJal] = 1,   [kRvJalr] = 1};
  uint64_t issue = g_cycles;
  if (i->rs1 && g_ready[i->rs1] > issue) issue = g_ready[i->rs1];
  if (i->rs2 && g_ready[i->rs2] > issue) issue = g_ready[i->rs2];
  const bool mdu = i->cls == kRvMul || i->cls == kRvDiv;
  if (mdu && g_mdu_free > issue) issue = g_mdu_free;
  g_cycles = issue + g_core->cost[i->cls];
  if (i->rd) g_ready[i->rd] = issue + kLatency[i->cls];
  if (mdu) g_mdu_free = issue + kLatency[i->cls];
}

static void OnBlock(unsigned vcpu_index, void* userdata) {
  (void)vcpu_index;
  Block* b = userdata;
  const uint64_t settled = g_cycles;
  SettleBranch(b->vaddr);
  // A refill is the branch's: the block before's last instruction.
  if (g_prev_profiled) g_prev_block->insns[g_prev_block->n - 1].cycles += g_cycles - settled;
  if (b->vaddr == g_begin) {
    g_region_cycles = g_cycles;
    g_region_insns = g_insns;
    g_in_region = true;
  } else if (b->vaddr == g_end) {
    char line[128];
    snprintf(line, sizeof line,
             "cycle-model: region %u: %" PRIu64 " cycles, %" PRIu64 " instructions\n", ++g_regions,
             g_cycles - g_region_cycles, g_insns - g_region_insns);
    qemu_plugin_outs(line);
    g_in_region = false;
  }
  const bool profiled =
      g_profile_path != NULL &&
      (g_profile_region == 0 || (g_in_region && g_regions + 1 == g_profile_region));
  for (size_t k = 0; k < b->n; ++k) {
    const uint64_t before = g_cycles;
    if (g_core->riscv) {
      RunRv(&b->insns[k]);
    } else {
      g_cycles += ArmCost(&b->insns[k], &g_prev);
      // A cached loop's LE is never issued: MVE overlaps across it.
      if (b->insns[k].cls != kLoopEnd) g_prev = b->insns[k];
    }
    if (profiled) {
      b->insns[k].runs += 1;
      b->insns[k].cycles += g_cycles - before;
    }
  }
  g_insns += b->n;
  g_prev_block = b;
  g_prev_profiled = profiled && b->n != 0;
}

static void OnTranslate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  // Kept for as long as QEMU may run the block: 7.2 tells a plugin of no flush.
  Block* b = malloc(sizeof(Block) + n * sizeof(Insn));
  if (b == NULL) abort();
  b->vaddr = qemu_plugin_tb_vaddr(tb);
  b->n = n;
  b->fallthrough = b->vaddr;
  for (size_t k = 0; k < n; ++k) {
    const struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, k);
    const size_t size = qemu_plugin_insn_size(insn);
    const uint8_t* data = qemu_plugin_insn_data(insn);
    b->insns[k] = g_core->riscv ? DecodeRv(data, size) : DecodeArm(data, size);
    b->insns[k].vaddr = qemu_plugin_insn_vaddr(insn);
    b->fallthrough = b->insns[k].vaddr + size;
  }
  b->next = g_blocks;
  g_blocks = b;
  qemu_plugin_register_vcpu_tb_exec_cb(tb, OnBlock, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void OnExit(qemu_plugin_id_t id, void* userdata) {
  (void)id;
  (void)userdata;
  char line[128];
  snprintf(line, sizeof line,
           "cycle-model: %s: %" PRIu64 " cycles, %" PRIu64 " instructions in all\n", g_core->name,
           g_cycles, g_insns);
  qemu_plugin_outs(line);
  if (g_profile_path == NULL) return;
  FILE* f = fopen(g_profile_path, "w");
  if (f == NULL) {
    fprintf(stderr, "cycle-model: cannot write %s\n", g_profile_path);
    return;
  }
  for (const Block* b = g_blocks; b != NULL; b = b->next) {
    for (size_t k = 0; k < b->n; ++k) {
      const Insn* i = &b->insns[k];
      if (i->runs != 0) {
        fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", i->vaddr, i->runs, i->cycles);
      }
    }
  }
  if (fclose(f) != 0) fprintf(stderr, "cycle-model: cannot write %s\n", g_profile_path);
}

// A code address, with a Thumb function's bit 0 cleared.
static bool ParseAddress(const char* text, uint64_t* out) {
  char* end = NULL;
  const unsigned long long v = strtoull(text, &end, 0);
  if (end == text || *end != '\0') return false;
  *out = v & ~1ull;
  return true;
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc, char** argv) {
  (void)info;
  for (int k = 0; k < argc; ++k) {
    const char* a = argv[k];
    bool ok = false;
    if (strncmp(a, "cpu=", 4) == 0) {
      // rv32imc runs the same model: its programs have no atomics.
      const char* cpu = strcmp(a + 4, "rv32imc") == 0 ? "rv32imac" : a + 4;
      for (size_t c = 0; c < sizeof kCores / sizeof kCores[0]; ++c) {
        if (strcmp(kCores[c].name, cpu) == 0) g_core = &kCores[c];
      }
      ok = g_core != NULL;
    } else if (strncmp(a, "begin=", 6) == 0) {
      ok = ParseAddress(a + 6, &g_begin);
    } else if (strncmp(a, "end=", 4) == 0) {
      ok = ParseAddress(a + 4, &g_end);
    } else if (strncmp(a, "profile=", 8) == 0) {
      g_profile_path = a + 8;
      ok = a[8] != '\0';
    } else if (strncmp(a, "region=", 7) == 0) {
      char* end = NULL;
      const unsigned long v = strtoul(a + 7, &end, 10);
      ok = end != a + 7 && *end == '\0' && v > 0 && v < UINT32_MAX;
      g_profile_region = (unsigned)v;
    }
    if (!ok) {
      fprintf(stderr, "cycle-model: bad argument '%s'\n", a);
      return 1;
    }
  }
  if (g_core == NULL) {
    fprintf(stderr, "cycle-model: needs cpu=CPU\n");
    return 1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, OnTranslate);
  qemu_plugin_register_atexit_cb(id, OnExit, NULL);
  return 0;
}
