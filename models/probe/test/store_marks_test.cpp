// Mark regions from probe-register stores: cycles between BEGIN and END, nesting, VALUE,
// unmatched and unfinished marks, names.
#include "models/probe/store_marks.h"

#include <gtest/gtest.h>

#include <sstream>

namespace socsim {
namespace {

TEST(StoreMarks, CyclesBetweenBeginAndEnd) {
  StoreMarks m;
  m.name_mark(7, "loop");
  m.on_store(0, 7, 100);
  m.on_store(4, 7, 150);
  m.on_store(0, 7, 200);
  m.on_store(4, 7, 230);
  const auto s = m.stats();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "loop");
  EXPECT_EQ(s[0].count, 2u);
  EXPECT_EQ(s[0].cycles, 80u);
  EXPECT_EQ(s[0].min_cycles, 30u);
  EXPECT_EQ(s[0].max_cycles, 50u);
  EXPECT_FALSE(s[0].has_elements);
}

TEST(StoreMarks, NestingOfOneIdCountsOnceAndValueGoesToTheInnermost) {
  StoreMarks m;
  m.on_store(0, 1, 10);
  m.on_store(0, 2, 20);
  m.on_store(8, 64, 21);  // VALUE -> mark 2
  m.on_store(0, 2, 22);   // nested BEGIN of 2: no new occurrence
  m.on_store(4, 2, 30);
  m.on_store(4, 2, 40);
  m.on_store(4, 1, 50);
  const auto s = m.stats();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "mark 1");
  EXPECT_EQ(s[0].cycles, 40u);
  EXPECT_FALSE(s[0].has_elements);
  EXPECT_EQ(s[1].count, 1u);
  EXPECT_EQ(s[1].cycles, 20u);
  EXPECT_TRUE(s[1].has_elements);
  EXPECT_EQ(s[1].elements, 64);
}

TEST(StoreMarks, UnmatchedEndAndOpenMarkAreReported) {
  StoreMarks m;
  m.on_store(4, 3, 5);
  m.on_store(0, 4, 6);
  EXPECT_EQ(m.unmatched_ends(), 1u);
  EXPECT_EQ(m.open_marks(), 1u);
  std::ostringstream out;
  m.print_table(out, 100, 400);
  EXPECT_NE(out.str().find("1 END mark(s) without a BEGIN"), std::string::npos);
  EXPECT_NE(out.str().find("1 mark(s) still open"), std::string::npos);
  std::ostringstream json;
  m.write_json(json, 100, 400, "test core");
  EXPECT_NE(json.str().find("\"unmatched_ends\": 1"), std::string::npos);
}

}  // namespace
}  // namespace socsim
