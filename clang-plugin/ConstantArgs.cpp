//===- ConstantArgs.cpp - Tile sizes named by constants -------------------===//
//
// See ConstantArgs.h. Names are looked up the way a reader of the nest would:
// the macro the pragma line saw first (macros are expanded by text, before
// any scope), then the template parameters of the instantiation, the locals
// declared before the nest, and the enclosing class and namespaces. The value
// is Clang's own constant evaluation of the declaration, so `constexpr int TS
// = 2 * WARP;` works as well as a literal.
//
//===----------------------------------------------------------------------===//

#include "ConstantArgs.h"
#include "schedule/DirectiveParser.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <cctype>
#include <functional>
#include <optional>

using namespace clang;

namespace sched {
namespace {

/// The last variable named Name declared in Body before Loop.
class LocalBefore : public RecursiveASTVisitor<LocalBefore> {
public:
  LocalBefore(const std::string &Name, const Stmt *Loop, const SourceManager &SM)
      : Name(Name), Loop(Loop), SM(SM) {}
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getName() == Name &&
        SM.isBeforeInTranslationUnit(VD->getLocation(), Loop->getBeginLoc()))
      Found = VD;
    return true;
  }
  const VarDecl *Found = nullptr;

private:
  const std::string &Name;
  const Stmt *Loop;
  const SourceManager &SM;
};

/// The integer a template parameter named Name of Params is bound to by Args.
std::optional<int64_t> templateArg(const std::string &Name, const TemplateParameterList *Params,
                                   const TemplateArgumentList *Args) {
  if (!Params || !Args)
    return std::nullopt;
  for (unsigned I = 0; I < Params->size() && I < Args->size(); ++I) {
    const auto *P = dyn_cast<NonTypeTemplateParmDecl>(Params->getParam(I));
    if (P && P->getName() == Name && Args->get(I).getKind() == TemplateArgument::Integral)
      return Args->get(I).getAsIntegral().getSExtValue();
  }
  return std::nullopt;
}

class Resolver {
public:
  Resolver(const std::map<std::string, std::string> &Macros, const FunctionDecl *Function,
           const Stmt *Loop, ASTContext &Ctx)
      : Macros(Macros), Function(Function), Loop(Loop), Ctx(Ctx) {}

  /// The value of Name, or nullopt with Why set.
  std::optional<int64_t> value(const std::string &Name, std::string &Why, int Depth = 0) {
    if (Depth > 8) {
      Why = "its macro expands to itself";
      return std::nullopt;
    }
    auto Macro = Macros.find(Name);
    if (Macro != Macros.end())
      return macroValue(Name, Macro->second, Why, Depth);
    if (std::optional<int64_t> V = templateValue(Name))
      return V;
    const ValueDecl *D = declNamed(Name);
    if (!D) {
      Why = "no constant, template parameter or macro of that name is visible at the nest";
      return std::nullopt;
    }
    if (const auto *E = dyn_cast<EnumConstantDecl>(D))
      return E->getInitVal().getSExtValue();
    const auto *VD = dyn_cast<VarDecl>(D);
    if (VD && VD->getType()->isIntegralOrEnumerationType() &&
        VD->isUsableInConstantExpressions(Ctx))
      if (const APValue *V = VD->evaluateValue())
        if (V->isInt())
          return V->getInt().getSExtValue();
    Why = "a variable whose value is not known at compile time (declare it `constexpr`, or "
          "`const` with a constant initializer)";
    return std::nullopt;
  }

private:
  std::optional<int64_t> macroValue(const std::string &Name, const std::string &Text,
                                    std::string &Why, int Depth) {
    // `64`, `(64)`, `64u`, `(2 * WARP)`: a factor expression over constants.
    ExpressionError Err;
    std::optional<int64_t> V = evaluateFactorExpression(
        Text, [&](const std::string &Inner, std::string &InnerWhy) {
          return value(Inner, InnerWhy, Depth + 1);
        }, Err);
    if (V)
      return V;
    Why = "macro '" + Name + "' expands to '" + Text + "', " +
          (Err.Name.empty() ? "which is not an integer constant expression (" + Err.Why + ")"
                            : "where '" + Err.Name + "' is not an integer constant: " + Err.Why);
    return std::nullopt;
  }

  std::optional<int64_t> templateValue(const std::string &Name) {
    if (!Function)
      return std::nullopt;
    if (const FunctionTemplateDecl *Primary = Function->getPrimaryTemplate())
      if (std::optional<int64_t> V = templateArg(Name, Primary->getTemplateParameters(),
                                                 Function->getTemplateSpecializationArgs()))
        return V;
    for (const DeclContext *DC = Function->getParent(); DC; DC = DC->getParent())
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(DC))
        if (std::optional<int64_t> V =
                templateArg(Name, Spec->getSpecializedTemplate()->getTemplateParameters(),
                            &Spec->getTemplateArgs()))
          return V;
    return std::nullopt;
  }

  const ValueDecl *declNamed(const std::string &Name) {
    if (!Function)
      return nullptr;
    for (const ParmVarDecl *Param : Function->parameters())
      if (Param->getName() == Name)
        return Param;
    if (const Stmt *Body = Function->getBody()) {
      LocalBefore Local(Name, Loop, Ctx.getSourceManager());
      Local.TraverseStmt(const_cast<Stmt *>(Body));
      if (Local.Found)
        return Local.Found;
    }
    DeclarationName DN(&Ctx.Idents.get(Name));
    auto In = [&](const DeclContext *DC) -> const ValueDecl * {
      for (const NamedDecl *ND : DC->lookup(DN))
        if (const auto *VD = dyn_cast<ValueDecl>(ND))
          if (isa<VarDecl>(VD) || isa<EnumConstantDecl>(VD))
            return VD;
      return nullptr;
    };
    for (const DeclContext *DC = Function; DC; DC = DC->getParent()) {
      if (DC != Function)
        if (const ValueDecl *VD = In(DC))
          return VD;
      // `using namespace cfg;` in this scope makes cfg's names visible.
      for (const UsingDirectiveDecl *Using : DC->using_directives())
        if (const ValueDecl *VD = In(Using->getNominatedNamespace()))
          return VD;
    }
    return nullptr;
  }

  const std::map<std::string, std::string> &Macros;
  const FunctionDecl *Function;
  const Stmt *Loop;
  ASTContext &Ctx;
};

} // namespace

bool resolveConstantArgs(std::vector<Directive> &Directives,
                         const std::map<std::string, std::string> &Macros,
                         const FunctionDecl *Function, const Stmt *Loop, ASTContext &Ctx,
                         const std::function<int(int, unsigned)> &LocAt,
                         std::vector<Diag> &Diags) {
  Resolver R(Macros, Function, Loop, Ctx);
  NameValue Lookup = [&](const std::string &Name, std::string &Why) { return R.value(Name, Why); };
  bool Ok = true;
  for (Directive &D : Directives)
    for (size_t I = 0; I < D.Args.size(); ++I) {
      if (!isNumberArg(D, I))
        continue;
      std::string &Text = D.Args[I].Text;
      size_t Eq = Text.find('=');
      size_t ValueStart = Eq == std::string::npos ? 0 : Eq + 1;
      std::string Value = Text.substr(ValueStart);
      if (Value.find_first_not_of("0123456789") == std::string::npos)
        continue; // a literal (the parser evaluated expressions of literals)
      ExpressionError Err;
      std::optional<int64_t> V = evaluateFactorExpression(Value, Lookup, Err);
      if (!V) {
        Diag Error;
        Error.Loc = LocAt(D.Args[I].Loc, static_cast<unsigned>(ValueStart + Err.Offset));
        Error.Message = Err.Name.empty()
                            ? "factor expression '" + Value + "' in '" + D.Name + "': " + Err.Why
                            : "'" + Err.Name + "' in '" + D.Name +
                                  "' is not an integer constant: " + Err.Why;
        Diags.push_back(Error);
        Ok = false;
        continue;
      }
      std::string Key = Eq == std::string::npos ? std::string() : Text.substr(0, Eq);
      Key.erase(Key.find_last_not_of(' ') + 1);
      Text = (Key.empty() ? std::string() : Key + "=") + std::to_string(*V);
    }
  return Ok;
}

} // namespace sched
