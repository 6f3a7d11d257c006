// Tests of Dim arithmetic and type printing.
#include "accy/Frontend/Types.h"

#include <catch2/catch.hpp>

using namespace accy;

TEST_CASE("static, symbolic and dynamic dims", "[types]") {
  Dim s = Dim::constant(784), n = Dim::symbol("N");
  CHECK(s.isStatic());
  CHECK(s.getStatic() == 784);
  CHECK(n.isSymbol());
  CHECK(n.getSymbol() == "N");
  Dim d = *Dim::sub(n, Dim::constant(1));
  CHECK(d.isDynamic());
  CHECK(d.str() == "N - 1");
  CHECK(Dim().getStatic() == 0);
  CHECK(Dim().str() == "0");
}

TEST_CASE("dims compare by canonical form", "[types]") {
  Dim n = Dim::symbol("N"), m = Dim::symbol("M");
  CHECK(*Dim::add(n, m) == *Dim::add(m, n));
  CHECK(*Dim::mul(n, m) == *Dim::mul(m, n));
  CHECK(*Dim::sub(*Dim::add(n, Dim::constant(3)), Dim::constant(3)) == n);
  CHECK(*Dim::sub(n, n) == Dim::constant(0));
  CHECK(Dim::mul(n, Dim::constant(2))->str() == "2*N");
  CHECK(Dim::mul(*Dim::mul(n, m), Dim::constant(3))->str() == "3*M*N");
  CHECK(Dim::sub(Dim::constant(5), n)->str() == "-N + 5");
  CHECK(Dim::add(*Dim::mul(n, n), n)->str() == "N*N + N");
  CHECK(n != m);
}

TEST_CASE("exact division, substitution and evaluation", "[types]") {
  Dim n = Dim::symbol("N"), d = Dim::symbol("D");
  Dim nd = *Dim::mul(n, d);
  CHECK(*Dim::divExact(nd, d) == n);
  CHECK(*Dim::divExact(Dim::constant(12), Dim::constant(4)) ==
        Dim::constant(3));
  CHECK_FALSE(Dim::divExact(Dim::constant(10), Dim::constant(4)).has_value());
  CHECK_FALSE(Dim::divExact(n, d).has_value());
  std::map<std::string, Dim> map{{"N", Dim::constant(3)}};
  CHECK(*nd.substitute(map) == *Dim::mul(Dim::constant(3), d));
  auto v = nd.evaluate([](llvm::StringRef s) -> std::optional<int64_t> {
    return s == "N" ? 3 : 5;
  });
  CHECK(v == 15);
  CHECK(nd.symbols() == std::vector<std::string>{"D", "N"});
}

TEST_CASE("overflow is reported as nullopt", "[types]") {
  Dim big = Dim::constant(INT64_MAX);
  CHECK_FALSE(Dim::add(big, Dim::constant(1)).has_value());
  CHECK_FALSE(Dim::mul(big, Dim::constant(2)).has_value());
}

TEST_CASE("tensor types print NumPy-like", "[types]") {
  TensorType t(ElemType::F32, {Dim::symbol("B"), Dim::constant(784)});
  CHECK(t.str() == "f32[B, 784]");
  CHECK(TensorType(ElemType::BF16).str() == "bf16");
  CHECK(t.rank() == 2);
  CHECK(TensorType(ElemType::I32).isScalar());
  CHECK(elemTypeName(ElemType::Bool) == "bool");
  CHECK(isFloat(ElemType::F16));
  CHECK(isInteger(ElemType::I64));
  CHECK_FALSE(isInteger(ElemType::Bool));
  CHECK(elemTypeBytes(ElemType::BF16) == 2);
}
