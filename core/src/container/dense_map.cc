#include "container/dense_map.h"

#include <ffi_core/allocator.h>
#include <ffi_core/container/any_equal.h>
#include <ffi_core/container/any_hash.h>
#include <ffi_core/error.h>

#include <cstring>
#include <new>
#include <utility>

#include "container/item_buffer.h"

namespace ffi_core {
namespace detail {
namespace {

constexpr uint8_t kEmptySlot = 0xFF;
constexpr uint8_t kProtectedSlot = 0xFE;  // emptied while a list moves; not to be written
constexpr uint8_t kTailBit = 0x80;        // clear on a list's head
constexpr uint8_t kJumpMask = 0x7F;
constexpr int kNumJumps = 126;
// The distances a list may jump, as upstream fixes them: 0 ends a list,
// then 1..15, then triangle numbers (quadratic probing that reaches every
// slot of a power-of-two table).
constexpr uint64_t kJumps[kNumJumps] = {
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    15,
    21,
    28,
    36,
    45,
    55,
    66,
    78,
    91,
    105,
    120,
    136,
    153,
    171,
    190,
    210,
    231,
    253,
    276,
    300,
    325,
    351,
    378,
    406,
    435,
    465,
    496,
    528,
    561,
    595,
    630,
    666,
    703,
    741,
    780,
    820,
    861,
    903,
    946,
    990,
    1035,
    1081,
    1128,
    1176,
    1225,
    1275,
    1326,
    1378,
    1431,
    1485,
    1540,
    1596,
    1653,
    1711,
    1770,
    1830,
    1891,
    1953,
    2016,
    2080,
    2145,
    2211,
    2278,
    2346,
    2415,
    2485,
    2556,
    2628,
    8515,
    19110,
    42778,
    96141,
    216153,
    486591,
    1092981,
    2458653,
    5532801,
    12442566,
    27993903,
    62983476,
    141717030,
    318844378,
    717352503,
    1614057336,
    3631522476,
    8170957530,
    18384510628,
    41364789378,
    93070452520,
    209408356380,
    471168559170,
    1060128894105,
    2385289465695,
    5366898840628,
    12075518705635,
    27169915244790,
    61132312065111,
    137547689707000,
    309482283181501,
    696335127828753,
    1566753995631385,
    3525196511162271,
    7931691992677701,
    17846306936293605,
    40154190677507445,
    90346928918121501,
    203280589587557251,
    457381325854679626,
    1029107982097042876,
    2315492959180353330,
    5209859154120846435,
};

// A table of slots: the dense fields of a MapObj, or a new table being
// filled before it replaces them.
struct Table {
  void* data = nullptr;
  uint64_t slots = 0;
  uint32_t fib_shift = 63;
  uint64_t head = kDenseEnd;
  uint64_t tail = kDenseEnd;
  uint64_t size = 0;

  uint8_t& Meta(uint64_t slot) const {
    return *(static_cast<uint8_t*>(data) + (slot / kDenseBlockSlots) * kDenseBlockBytes +
             slot % kDenseBlockSlots);
  }
  DenseItem& Item(uint64_t slot) const {
    char* block = static_cast<char*>(data) + (slot / kDenseBlockSlots) * kDenseBlockBytes;
    return reinterpret_cast<DenseItem*>(block + kDenseBlockSlots)[slot % kDenseBlockSlots];
  }
  // Fibonacci hashing of the key's hash onto the table.
  uint64_t Home(const AnyView& key) const {
    return (uint64_t{11400714819323198485ull} * AnyHash(key)) >> fib_shift;
  }
  // Modulo the slot count, a power of two.
  uint64_t Jump(uint64_t slot, uint8_t jump) const { return (slot + kJumps[jump]) & (slots - 1); }
  // Upstream's load limit, size + 1 > 0.99 * slots, in integers: no
  // floating point (a soft-float library on an M0), the same answer for
  // every power-of-two slot count.
  bool IsFull() const { return (size + 1) * 100 > slots * 99; }

  // ---- the list of entries in insertion order ----
  void PushBack(uint64_t slot) {
    DenseItem& item = Item(slot);
    item.prev = tail;
    item.next = kDenseEnd;
    if (tail != kDenseEnd) Item(tail).next = slot;
    if (head == kDenseEnd) head = slot;
    tail = slot;
  }
  void Unlink(uint64_t slot) {
    const DenseItem& item = Item(slot);
    (item.prev == kDenseEnd ? head : Item(item.prev).next) = item.next;
    (item.next == kDenseEnd ? tail : Item(item.next).prev) = item.prev;
  }
  // `to` takes `from`'s place in insertion order.
  void Relink(uint64_t from, uint64_t to) {
    DenseItem& moved = Item(to);
    moved.prev = Item(from).prev;
    moved.next = Item(from).next;
    (moved.prev == kDenseEnd ? head : Item(moved.prev).next) = to;
    (moved.next == kDenseEnd ? tail : Item(moved.next).prev) = to;
  }

  // The first empty slot a jump away from `from`.
  bool NextEmpty(uint64_t from, uint8_t* jump, uint64_t* empty) const {
    for (uint8_t j = 1; j < kNumJumps; ++j) {
      const uint64_t candidate = Jump(from, j);
      if (Meta(candidate) == kEmptySlot) {
        *jump = j;
        *empty = candidate;
        return true;
      }
    }
    return false;
  }
  // The slot before `slot` in its key's list (which `slot` is not the head of).
  uint64_t Prev(uint64_t slot) const {
    uint64_t prev = Home(Item(slot).pair.key);
    for (uint64_t next = Jump(prev, Meta(prev) & kJumpMask); next != slot;
         next = Jump(next, Meta(next) & kJumpMask)) {
      prev = next;
    }
    return prev;
  }
  void SetJump(uint64_t slot, uint8_t jump) const {
    Meta(slot) = static_cast<uint8_t>((Meta(slot) & kTailBit) | jump);
  }
  // Constructs an entry in an empty slot from bits relocated from elsewhere
  // (the pair's Anys move without reference counting).
  void Place(uint64_t slot, uint8_t meta, const MapPair& bits) {
    Meta(slot) = meta;
    std::memcpy(static_cast<void*>(&Item(slot).pair), &bits, sizeof(MapPair));
  }

  bool TryInsert(const MapPair& bits, uint64_t* placed, bool* existed);
  bool TrySpareHead(uint64_t target, const MapPair& bits);
};

// Puts the pair (relocated bits) in the table, or finds its key there
// (*existed: the caller keeps the value and drops the key). False when the
// table has no room: nothing changed, it must grow. As upstream: a key
// already present moves to the end of the insertion order.
bool Table::TryInsert(const MapPair& bits, uint64_t* placed, bool* existed) {
  *existed = false;
  if (slots == 0) return false;
  const uint64_t home = Home(bits.key);
  if (Meta(home) == kEmptySlot) {
    Place(home, 0, bits);
    ++size;
    PushBack(home);
    *placed = home;
    return true;
  }
  if (Meta(home) & kTailBit) {  // another key's list passes here
    if (IsFull() || !TrySpareHead(home, bits)) return false;
    ++size;
    PushBack(home);
    *placed = home;
    return true;
  }
  uint64_t last = home;
  for (uint64_t at = home;;) {
    if (AnyEqual(bits.key, Item(at).pair.key)) {
      Unlink(at);
      PushBack(at);
      *placed = at;
      *existed = true;
      return true;
    }
    last = at;
    const uint8_t jump = Meta(at) & kJumpMask;
    if (jump == 0) break;
    at = Jump(at, jump);
  }
  uint8_t jump = 0;
  uint64_t empty = 0;
  if (IsFull() || !NextEmpty(last, &jump, &empty)) return false;
  Place(empty, kTailBit, bits);
  SetJump(last, jump);
  ++size;
  PushBack(empty);
  *placed = empty;
  return true;
}

// Frees `target` (in another key's list) for a new list's head: the rest of
// that list from `target` on moves to empty slots after its predecessor. The
// moves are planned first, so a list that cannot move changes nothing.
bool Table::TrySpareHead(uint64_t target, const MapPair& bits) {
  constexpr int kMaxMoves = 128;
  uint64_t from[kMaxMoves];
  uint64_t to[kMaxMoves];
  uint8_t jumps[kMaxMoves];
  int n = 0;
  // Plan: slots a move fills are no longer empty; slots it empties (but the
  // first, which stays protected) become free for later moves.
  auto planned_empty = [&](uint64_t slot) {
    for (int i = 0; i < n; ++i) {
      if (to[i] == slot) return false;
    }
    for (int i = 1; i < n; ++i) {
      if (from[i] == slot) return true;
    }
    return Meta(slot) == kEmptySlot && slot != target;
  };
  uint64_t w = Prev(target);
  for (uint64_t r = target;;) {
    if (n == kMaxMoves) return false;
    bool found = false;
    for (uint8_t j = 1; j < kNumJumps && !found; ++j) {
      const uint64_t candidate = Jump(w, j);
      if (planned_empty(candidate)) {
        from[n] = r;
        to[n] = candidate;
        jumps[n] = j;
        found = true;
      }
    }
    if (!found) return false;
    w = to[n++];
    const uint8_t jump = Meta(r) & kJumpMask;
    if (jump == 0) break;
    r = Jump(r, jump);
  }
  // Carry out the plan: each entry moves, keeping its place in insertion
  // order; the list is relinked through the new slots.
  uint64_t prev = Prev(target);
  for (int i = 0; i < n; ++i) {
    Place(to[i], kTailBit, Item(from[i]).pair);
    Relink(from[i], to[i]);
    SetJump(prev, jumps[i]);
    Meta(from[i]) = i == 0 ? kProtectedSlot : kEmptySlot;
    prev = to[i];
  }
  SetJump(prev, 0);
  Place(target, 0, bits);
  return true;
}

// Upstream's table size for a capacity: the power of two above it, doubled
// when that leaves less than half free.
void TableSize(uint64_t capacity, uint32_t* fib_shift, uint64_t* slots) {
  uint32_t shift = 64;
  uint64_t n = 1;
  for (uint64_t c = capacity; c != 0; c >>= 1) {
    --shift;
    n <<= 1;
  }
  if (n < capacity * 2) {
    *fib_shift = shift - 1;
    *slots = n << 1;
  } else {
    *fib_shift = shift;
    *slots = n;
  }
}

Status NewTable(Table* t, uint32_t fib_shift, uint64_t slots, const char* who) {
  const uint64_t blocks = (slots + kDenseBlockSlots - 1) / kDenseBlockSlots;
  void* data = NewItemBuffer(static_cast<size_t>(blocks), kDenseBlockBytes, who);
  if (data == nullptr) return Status(ErrorKind::kMemoryError);
  for (uint64_t b = 0; b < blocks; ++b) {
    std::memset(static_cast<char*>(data) + b * kDenseBlockBytes, kEmptySlot, kDenseBlockSlots);
  }
  *t = Table();
  t->data = data;
  t->slots = slots;
  t->fib_shift = fib_shift;
  return Status::Ok();
}

Table TableOf(const MapObj* m) {
  Table t;
  t.data = m->data;
  t.slots = m->slots;
  t.fib_shift = m->fib_shift;
  t.head = m->iter_head;
  t.tail = m->iter_tail;
  t.size = m->size;
  return t;
}

void Store(MapObj* m, const Table& t) {
  m->data = t.data;
  m->slots = t.slots;
  m->fib_shift = t.fib_shift;
  m->iter_head = t.head;
  m->iter_tail = t.tail;
  m->size = t.size;
}

// A table twice the size (or more, if that one has no room) holding the
// entries of `old` in order, with `extra` (relocated bits) last; `old`'s
// storage is then given back, its entries now owned by the new one.
Status Grow(MapObj* m, const MapPair& extra, const char* who) {
  const Table old = TableOf(m);
  uint32_t shift = old.fib_shift - 1;
  uint64_t slots = old.slots * 2;
  for (;;) {
    Table grown;
    FFI_CORE_RETURN_IF_ERROR(NewTable(&grown, shift, slots, who));
    bool fits = true;
    uint64_t placed = 0;
    bool existed = false;
    for (uint64_t at = old.head; at != kDenseEnd && fits; at = old.Item(at).next) {
      fits = grown.TryInsert(old.Item(at).pair, &placed, &existed);
    }
    fits = fits && grown.TryInsert(extra, &placed, &existed);
    if (fits) {
      FreeBuffer(old.data);
      Store(m, grown);
      m->data_deleter = &FreeBuffer;
      return Status::Ok();
    }
    // Only bits were copied in: the storage goes back, nothing is destroyed.
    FreeBuffer(grown.data);
    --shift;
    slots *= 2;
  }
}

// Relocates `count` pairs (bits) into a new table sized for `capacity`,
// doubling it until they fit; the caller then owns `*t`.
Status FillNewTable(Table* t, const MapPair* pairs, uint64_t count, uint64_t capacity,
                    const char* who) {
  uint32_t shift = 0;
  uint64_t slots = 0;
  TableSize(capacity, &shift, &slots);
  for (;;) {
    FFI_CORE_RETURN_IF_ERROR(NewTable(t, shift, slots, who));
    bool fits = true;
    uint64_t placed = 0;
    bool existed = false;
    for (uint64_t i = 0; i < count && fits; ++i) fits = t->TryInsert(pairs[i], &placed, &existed);
    if (fits) return Status::Ok();
    FreeBuffer(t->data);
    --shift;
    slots *= 2;
  }
}

}  // namespace

Status DenseFromSmall(MapObj* m, uint64_t capacity, const char* who) {
  Table t;
  FFI_CORE_RETURN_IF_ERROR(
      FillNewTable(&t, static_cast<const MapPair*>(m->data), m->size, capacity, who));
  // The pairs' bits moved: their old buffer goes back unread.
  if (m->data_deleter != nullptr) m->data_deleter(m->data);
  Store(m, t);
  m->data_deleter = &FreeBuffer;
  return Status::Ok();
}

MapPair* DenseFind(const MapObj* m, const AnyView& key) {
  if (m->size == 0) return nullptr;
  const Table t = TableOf(m);
  uint64_t at = t.Home(key);
  if (t.Meta(at) == kEmptySlot || t.Meta(at) == kProtectedSlot || (t.Meta(at) & kTailBit)) {
    return nullptr;
  }
  for (;;) {
    if (AnyEqual(key, t.Item(at).pair.key)) return &t.Item(at).pair;
    const uint8_t jump = t.Meta(at) & kJumpMask;
    if (jump == 0) return nullptr;
    at = t.Jump(at, jump);
  }
}

Status DenseSet(MapObj* m, Any key, Any value, const char* who) {
  MapPair bits{std::move(key), std::move(value)};
  Table t = TableOf(m);
  uint64_t placed = 0;
  bool existed = false;
  if (t.TryInsert(bits, &placed, &existed)) {
    Store(m, t);
    if (existed) {
      // The stored key stays; the new value replaces the old one.
      std::swap(t.Item(placed).pair.value, bits.value);
      return Status::Ok();
    }
  } else {
    FFI_CORE_RETURN_IF_ERROR(Grow(m, bits, who));
  }
  // The table owns the pair's bits now.
  new (&bits) MapPair();
  return Status::Ok();
}

bool DenseErase(MapObj* m, const AnyView& key) {
  MapPair* found = DenseFind(m, key);
  if (found == nullptr) return false;
  Table t = TableOf(m);
  // The slot of the found pair, from its address (in size_t: an address
  // offset fits, and 32-bit cores divide it without a library call).
  const auto offset =
      static_cast<size_t>(reinterpret_cast<char*>(found) - static_cast<char*>(m->data));
  const size_t block = offset / kDenseBlockBytes;
  const size_t in_block = (offset % kDenseBlockBytes - kDenseBlockSlots) / sizeof(DenseItem);
  const uint64_t at = uint64_t{block} * kDenseBlockSlots + in_block;
  t.Unlink(at);
  if ((t.Meta(at) & kJumpMask) == 0) {
    // The last of its list: cut the link to it, if it has a predecessor.
    if (t.Meta(at) & kTailBit) t.SetJump(t.Prev(at), 0);
    t.Item(at).pair.~MapPair();
    t.Meta(at) = kEmptySlot;
  } else {
    // The list's last entry takes its place, so the list stays unbroken.
    uint64_t prev = at;
    uint64_t last = t.Jump(at, t.Meta(at) & kJumpMask);
    while ((t.Meta(last) & kJumpMask) != 0) {
      prev = last;
      last = t.Jump(last, t.Meta(last) & kJumpMask);
    }
    t.Item(at).pair.~MapPair();
    std::memcpy(static_cast<void*>(&t.Item(at).pair), &t.Item(last).pair, sizeof(MapPair));
    t.Relink(last, at);
    t.Meta(last) = kEmptySlot;
    t.SetJump(prev, 0);
  }
  --t.size;
  Store(m, t);
  return true;
}

void DenseClear(MapObj* m) {
  Table t = TableOf(m);
  for (uint64_t slot = 0; slot < t.slots; ++slot) {
    const uint8_t meta = t.Meta(slot);
    if (meta != kEmptySlot && meta != kProtectedSlot) t.Item(slot).pair.~MapPair();
    t.Meta(slot) = kEmptySlot;
  }
  t.size = 0;
  t.head = kDenseEnd;
  t.tail = kDenseEnd;
  Store(m, t);
}

}  // namespace detail
}  // namespace ffi_core
