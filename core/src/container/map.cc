#include <ffi_core/allocator.h>
#include <ffi_core/container/any_equal.h>
#include <ffi_core/container/map.h>
#include <ffi_core/error.h>

#include <cstring>
#include <new>
#include <utility>

#include "container/dense_map.h"
#include "container/item_buffer.h"

namespace ffi_core {
namespace {

MapPair* Pairs(MapObj* m) { return static_cast<MapPair*>(m->data); }
size_t Capacity(const MapObj* m) { return static_cast<size_t>(m->slots & ~kSmallMapTag); }

MapPair* FindPair(const MapObj* m, const AnyView& key) {
  if (!detail::IsSmallMap(m)) return detail::DenseFind(m, key);
  MapPair* pairs = static_cast<MapPair*>(m->data);
  for (uint64_t i = 0; i < m->size; ++i) {
    if (AnyEqual(pairs[i].key, key)) return &pairs[i];
  }
  return nullptr;
}

// Room in a small map for `needed` (at most kSmallMapMaxSize) pairs: a new
// buffer of that many, the pairs moved.
Status Reserve(MapObj* m, size_t needed, const char* who) {
  if (needed <= Capacity(m)) return Status::Ok();
  const size_t grown = detail::kSmallMapMaxSize;
  void* fresh = detail::NewItemBuffer(grown, sizeof(MapPair), who);
  if (fresh == nullptr) return Status(ErrorKind::kMemoryError);
  // MapPair is relocatable (two Anys): its bytes move, the old buffer is
  // freed unread.
  if (m->size != 0) std::memcpy(fresh, m->data, m->size * sizeof(MapPair));
  if (m->data_deleter != nullptr) m->data_deleter(m->data);
  m->data = fresh;
  m->slots = grown | kSmallMapTag;
  m->data_deleter = &FreeBuffer;
  return Status::Ok();
}

// Sets one pair of an object being built or a Dict; key and value owned first.
Status SetPair(MapObj* m, const AnyView& key, const AnyView& value, const char* who) {
  FFI_CORE_ASSIGN_OR_RETURN(Any k, Any::FromView(key));
  FFI_CORE_ASSIGN_OR_RETURN(Any v, Any::FromView(value));
  if (!detail::IsSmallMap(m)) return detail::DenseSet(m, std::move(k), std::move(v), who);
  if (MapPair* found = FindPair(m, k)) {
    found->value = std::move(v);
    return Status::Ok();
  }
  if (m->size == detail::kSmallMapMaxSize) {
    // Full: upstream's switch to the dense form.
    FFI_CORE_RETURN_IF_ERROR(detail::DenseFromSmall(m, m->size, who));
    return detail::DenseSet(m, std::move(k), std::move(v), who);
  }
  FFI_CORE_RETURN_IF_ERROR(Reserve(m, static_cast<size_t>(m->size) + 1, who));
  new (&Pairs(m)[m->size]) MapPair{std::move(k), std::move(v)};
  ++m->size;
  return Status::Ok();
}

Status KeyError() { return RaiseError(ErrorKind::kKeyError, {"key is not in Map"}); }

// Its first reference is never dropped, so it needs no deleter.
TVMFFIObject g_missing = {kRefCountBothOne, kTVMFFIObject, 0, {nullptr}};

}  // namespace

Any MissingObject() {
  ObjectIncRef(&g_missing);
  TVMFFIAny raw = NoneAny();
  raw.type_index = kTVMFFIObject;
  raw.v_obj = &g_missing;
  return Any::AdoptRaw(raw);
}

MapObj::~MapObj() {
  if (detail::IsSmallMap(this)) {
    for (uint64_t i = 0; i < size; ++i) Pairs(this)[i].~MapPair();
  } else {
    detail::DenseClear(this);
  }
  if (data_deleter != nullptr) data_deleter(data);
}

namespace detail {

template <typename Derived>
const MapPair* MapAccessors<Derived>::Find(const AnyView& key) const {
  return obj() ? FindPair(obj(), key) : nullptr;
}

template <typename Derived>
Expected<AnyView> MapAccessors<Derived>::At(const AnyView& key) const {
  const MapPair* p = Find(key);
  if (p == nullptr) return KeyError();
  return AnyView(p->value);
}

template class MapAccessors<Map>;
template class MapAccessors<Dict>;

Expected<ObjectPtr<MapObj>> NewMapObj(int32_t type_index, const AnyView* pairs, size_t n) {
  const char* who = type_index == kTVMFFIMap ? "Map" : "Dict";
  if (pairs == nullptr && n != 0) {
    return RaiseError(ErrorKind::kValueError, {who, ": NULL pairs"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(MapObj * m, NewObject<MapObj>(type_index, 0));
  m->data = nullptr;
  m->size = 0;
  m->slots = kSmallMapTag;
  m->data_deleter = nullptr;
  m->fib_shift = 63;
  m->iter_head = detail::kDenseEnd;
  m->iter_tail = detail::kDenseEnd;
  ObjectPtr<MapObj> owned = ObjectPtr<MapObj>::Adopt(m);
  // Pairs go in one by one, as upstream's ffi.Map sets them: small up to
  // its limit, dense past it.
  if (n != 0) {
    FFI_CORE_RETURN_IF_ERROR(
        Reserve(m, n < detail::kSmallMapMaxSize ? n : detail::kSmallMapMaxSize, who));
  }
  for (size_t i = 0; i < n; ++i) {
    FFI_CORE_RETURN_IF_ERROR(SetPair(m, pairs[2 * i], pairs[2 * i + 1], who));
  }
  return owned;
}

}  // namespace detail

Expected<Map> Map::FromPairs(const AnyView* pairs, size_t n) {
  FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<MapObj> m, detail::NewMapObj(kTVMFFIMap, pairs, n));
  return Map(std::move(m));
}

Expected<Dict> Dict::FromPairs(const AnyView* pairs, size_t n) {
  FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<MapObj> m, detail::NewMapObj(kTVMFFIDict, pairs, n));
  return Dict(std::move(m));
}

Status Dict::Set(const AnyView& key, const AnyView& value) {
  return SetPair(obj_.get(), key, value, "Dict");
}

Status Dict::Erase(const AnyView& key) {
  if (!detail::IsSmallMap(obj_.get())) {
    return detail::DenseErase(obj_.get(), key) ? Status::Ok() : KeyError();
  }
  MapPair* found = FindPair(obj_.get(), key);
  if (found == nullptr) return KeyError();
  MapPair* pairs = Pairs(obj_.get());
  const size_t at = static_cast<size_t>(found - pairs);
  found->~MapPair();
  const size_t tail = static_cast<size_t>(obj_->size) - at - 1;
  // Later pairs move up: insertion order stays.
  if (tail != 0) std::memmove(static_cast<void*>(found), found + 1, tail * sizeof(MapPair));
  --obj_->size;
  return Status::Ok();
}

void Dict::Clear() {
  if (!detail::IsSmallMap(obj_.get())) return detail::DenseClear(obj_.get());
  for (uint64_t i = 0; i < obj_->size; ++i) Pairs(obj_.get())[i].~MapPair();
  obj_->size = 0;
}

}  // namespace ffi_core
