// tvm::ffi::VisitErrorContext::FindAccessPaths: where, under a root, the
// objects a failed visit passed through are. The context lists them
// innermost first (reverse_visit_pattern); a path is reported when a walk
// down from the root meets all of them in order, outermost first.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/accessor.h>

#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

using reflection::AccessPath;
using reflection::AccessStep;

class PathFinder {
 public:
  PathFinder(const VisitErrorContext& context, bool allow_prefix_match)
      : allow_prefix_match_(allow_prefix_match) {
    // The pattern outermost first, without empty entries, and with a run of
    // one object kept once: a visit records a node both where it throws and
    // where it catches.
    const List<ObjectRef>& recorded = context->reverse_visit_pattern;
    for (int64_t i = static_cast<int64_t>(recorded.size()) - 1; i >= 0; --i) {
      ObjectRef node = recorded[i];
      if (!node.defined()) continue;
      if (!pattern_.empty() && pattern_.back().same_as(node)) continue;
      pattern_.push_back(std::move(node));
    }
  }

  Array<AccessPath> Find(const ObjectRef& root) {
    VisitObject(root);
    return Array<AccessPath>(found_.begin(), found_.end());
  }

 private:
  void VisitAny(const Any& value) {
    switch (value.type_index()) {
      case TypeIndex::kTVMFFIArray:
        VisitItems(value.cast<Array<Any>>());
        return;
      case TypeIndex::kTVMFFIList:
        VisitItems(value.cast<List<Any>>());
        return;
      case TypeIndex::kTVMFFIMap:
        VisitPairs(value.cast<Map<Any, Any>>());
        return;
      case TypeIndex::kTVMFFIDict:
        VisitPairs(value.cast<Dict<Any, Any>>());
        return;
      default:
        if (value.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin) {
          VisitObject(value.cast<ObjectRef>());
        }
    }
  }

  template <typename Items>
  void VisitItems(const Items& items) {
    for (int64_t i = 0; i < static_cast<int64_t>(items.size()); ++i) {
      Descend(AccessStep::ArrayItem(i), items[i]);
    }
  }

  template <typename Pairs>
  void VisitPairs(const Pairs& pairs) {
    for (const auto& [key, value] : pairs) {
      if (key != nullptr) Descend(AccessStep::MapItem(key), value);
    }
  }

  void Descend(AccessStep step, const Any& child) {
    if (child == nullptr) return;
    steps_.push_back(std::move(step));
    VisitAny(child);
    steps_.pop_back();
  }

  // Only reflected objects are walked: their fields are the edges.
  void VisitObject(const ObjectRef& node) {
    if (!node.defined()) return;
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(node->type_index());
    if (info == nullptr || info->metadata == nullptr) return;
    const bool matches = matched_ < pattern_.size() && node.same_as(pattern_[matched_]);
    if (matches) {
      ++matched_;
      if (matched_ == pattern_.size()) {
        found_.push_back(CurrentPath());
        --matched_;
        return;
      }
    }
    const size_t found_before = found_.size();
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      Any child = reflection::FieldGetter(field)(node);
      Descend(AccessStep::Attr(String(field->name.data, field->name.size)), child);
    });
    // With prefix matches allowed, the deepest node of a partial match
    // stands for it when nothing below it was reported (never the root).
    if (allow_prefix_match_ && matched_ > 0 && !steps_.empty() && found_.size() == found_before) {
      found_.push_back(CurrentPath());
    }
    if (matches) --matched_;
  }

  AccessPath CurrentPath() const {
    AccessPath path = AccessPath::Root();
    for (const AccessStep& step : steps_) path = path->Extend(step);
    return path;
  }

  bool allow_prefix_match_;
  std::vector<ObjectRef> pattern_;
  size_t matched_ = 0;
  std::vector<AccessStep> steps_;
  std::vector<AccessPath> found_;
};

}  // namespace

Array<reflection::AccessPath> VisitErrorContext::FindAccessPaths(
    const ObjectRef& root, const VisitErrorContext& visit_context, bool allow_prefix_match) {
  return PathFinder(visit_context, allow_prefix_match).Find(root);
}

}  // namespace ffi
}  // namespace tvm
