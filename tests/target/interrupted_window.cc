// Decodes just enough of the instruction stream at the interrupted address:
// forward from it (it is an instruction boundary) to the next exclusive
// load or store, and the one instruction before it for an unmasking write.
// Conditional branches are stepped over, as the compare-and-swap loops the
// compilers emit test between their load and store; an unconditional
// transfer ends the search.
#include "interrupted_window.h"

#include <cstring>

namespace target_test {
namespace {

constexpr int kLookahead = 8;

uint16_t Half(uint32_t address) {
  uint16_t h;
  std::memcpy(&h, reinterpret_cast<const void*>(static_cast<uintptr_t>(address)), sizeof(h));
  return h;
}

#if defined(__arm__)

enum class Step { kExclusiveLoad, kExclusiveStore, kEnd, kNext };

// T1 LDREX/STREX (E85n/E84n), or the byte/halfword/acquire-release forms
// (E8Dn/E8Cn with op 0100, 0101, 1100, 1101, 1110 in the second half).
Step Thumb32(uint16_t h1, uint16_t h2) {
  const uint16_t top = h1 & 0xFFF0u;
  const unsigned op = (h2 >> 4) & 0xFu;
  const bool sized = op == 0x4 || op == 0x5 || op == 0xC || op == 0xD || op == 0xE;
  if (top == 0xE850u || (top == 0xE8D0u && sized)) return Step::kExclusiveLoad;
  if (top == 0xE840u || (top == 0xE8C0u && sized)) return Step::kExclusiveStore;
  // Branches and control: B.W (T4), BL and BLX have bit 12 or 14 set;
  // the conditional B.W (T3) and MSR/MRS/hints do not.
  if ((h1 & 0xF800u) == 0xF000u && (h2 & 0x8000u) != 0 && (h2 & 0x5000u) != 0) return Step::kEnd;
  return Step::kNext;
}

Step Thumb16(uint16_t h) {
  if ((h & 0xF800u) == 0xE000u) return Step::kEnd;  // B
  if ((h & 0xFF00u) == 0xBD00u) return Step::kEnd;  // POP {..., pc}
  if ((h & 0xFF00u) == 0x4700u) return Step::kEnd;  // BX, BLX
  if ((h & 0xFE00u) == 0xDE00u) return Step::kEnd;  // UDF, SVC
  return Step::kNext;
}

bool IsThumb32(uint16_t h) { return (h >> 11) >= 0x1Du; }

bool AfterUnmask(uint32_t pc) {
  if (Half(pc - 2) == 0xB662u) return true;                               // CPSIE i
  return (Half(pc - 4) & 0xFFF0u) == 0xF380u && Half(pc - 2) == 0x8810u;  // MSR PRIMASK, Rn
}

Step Decode(uint32_t* pc) {
  const uint16_t h1 = Half(*pc);
  if (IsThumb32(h1)) {
    const uint16_t h2 = Half(*pc + 2);
    *pc += 4;
    return Thumb32(h1, h2);
  }
  *pc += 2;
  return Thumb16(h1);
}

#elif defined(__riscv)

enum class Step { kExclusiveLoad, kExclusiveStore, kEnd, kNext };

uint32_t Word(uint32_t address) {
  return static_cast<uint32_t>(Half(address)) | static_cast<uint32_t>(Half(address + 2)) << 16;
}

Step Rv32(uint32_t insn) {
  const uint32_t opcode = insn & 0x7Fu;
  if (opcode == 0x2Fu && ((insn >> 12) & 7u) == 2u) {  // AMO, word
    const uint32_t funct5 = insn >> 27;
    if (funct5 == 2u) return Step::kExclusiveLoad;   // LR.W
    if (funct5 == 3u) return Step::kExclusiveStore;  // SC.W
    return Step::kNext;
  }
  if (opcode == 0x6Fu || opcode == 0x67u) return Step::kEnd;  // JAL, JALR
  return Step::kNext;
}

Step Rv16(uint16_t insn) {
  const unsigned quadrant = insn & 3u;
  const unsigned funct3 = insn >> 13;
  if (quadrant == 1u && (funct3 == 1u || funct3 == 5u)) return Step::kEnd;  // C.JAL, C.J
  // C.JR, C.JALR: funct4 100x, rs1 != 0, rs2 == 0.
  if (quadrant == 2u && funct3 == 4u && ((insn >> 2) & 0x1Fu) == 0u &&
      ((insn >> 7) & 0x1Fu) != 0u) {
    return Step::kEnd;
  }
  return Step::kNext;
}

// csrrw/csrrs/csrrwi/csrrsi on mstatus (0x300): the only writes that can set MIE.
bool AfterUnmask(uint32_t pc) {
  const uint32_t insn = Word(pc - 4);
  const uint32_t funct3 = (insn >> 12) & 7u;
  return (insn & 0x7Fu) == 0x73u && (insn >> 20) == 0x300u &&
         (funct3 == 1u || funct3 == 2u || funct3 == 5u || funct3 == 6u);
}

Step Decode(uint32_t* pc) {
  const uint16_t low = Half(*pc);
  if ((low & 3u) == 3u) {
    const uint32_t insn = Word(*pc);
    *pc += 4;
    return Rv32(insn);
  }
  *pc += 2;
  return Rv16(low);
}

#else
#error "interrupted_window.cc decodes Thumb and RV32 only"
#endif

}  // namespace

Window ClassifyInterruptedPc(uint32_t pc) {
  if (AfterUnmask(pc)) return Window::kAfterMasked;
  uint32_t at = pc;
  for (int i = 0; i < kLookahead; ++i) {
    switch (Decode(&at)) {
      case Step::kExclusiveStore:
        return Window::kExclusive;
      case Step::kExclusiveLoad:
      case Step::kEnd:
        return Window::kOther;
      case Step::kNext:
        break;
    }
  }
  return Window::kOther;
}

}  // namespace target_test
