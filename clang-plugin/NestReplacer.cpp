//===- NestReplacer.cpp - Swapping a nest for its launcher call -----------===//
//
// Builds the launcher call through Sema (so the call, the `&` and the `!` get
// the types and implicit conversions CodeGen expects) and splices it into the
// parent statement. Any statement kind can be the parent: its children() are
// references to its own sub-statement slots, so the swap is one assignment.
// `__sched_launch` is declared once per translation unit, with C linkage,
// unless the program already declares it (by including SchedRuntime.h).
//
//===----------------------------------------------------------------------===//

#include "NestReplacer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace sched {
namespace {

constexpr const char *LauncherName = "__sched_launch";

/// Finds the statement whose child slot holds Target.
class ParentFinder : public RecursiveASTVisitor<ParentFinder> {
public:
  explicit ParentFinder(const Stmt *Target) : Target(Target) {}

  bool VisitStmt(Stmt *S) {
    for (Stmt *&Child : S->children())
      if (Child == Target) {
        Slot = &Child;
        return false; // found: stop the traversal
      }
    return true;
  }

  Stmt **Slot = nullptr;

private:
  const Stmt *Target;
};

/// The function body itself may be the loop only in theory (bodies are
/// compound statements), so only statement parents are searched.
Stmt **findSlot(Decl *Root, const ForStmt *Loop) {
  ParentFinder Finder(Loop);
  Finder.TraverseDecl(Root);
  return Finder.Slot;
}

/// `extern "C" int __sched_launch(const char *, ...)`, found or declared.
FunctionDecl *getOrDeclareLauncher(ASTContext &Ctx) {
  TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  IdentifierInfo &Name = Ctx.Idents.get(LauncherName);
  for (NamedDecl *Existing : TU->lookup(DeclarationName(&Name)))
    if (auto *FD = dyn_cast<FunctionDecl>(Existing))
      return FD;

  auto *Linkage = LinkageSpecDecl::Create(Ctx, TU, SourceLocation(), SourceLocation(),
                                          LinkageSpecLanguageIDs::C, /*HasBraces=*/false);
  Linkage->setImplicit();
  TU->addDecl(Linkage);

  QualType DescriptorTy = Ctx.getPointerType(Ctx.CharTy.withConst());
  FunctionProtoType::ExtProtoInfo Info;
  Info.Variadic = true;
  QualType FnTy = Ctx.getFunctionType(Ctx.IntTy, {DescriptorTy}, Info);
  auto *FD = FunctionDecl::Create(Ctx, TU, SourceLocation(), SourceLocation(),
                                  DeclarationName(&Name), FnTy,
                                  Ctx.getTrivialTypeSourceInfo(FnTy), SC_Extern);
  auto *Param = ParmVarDecl::Create(Ctx, FD, SourceLocation(), SourceLocation(),
                                    &Ctx.Idents.get("Descriptor"), DescriptorTy,
                                    Ctx.getTrivialTypeSourceInfo(DescriptorTy), SC_None,
                                    nullptr);
  FD->setParams({Param});
  FD->setImplicit();
  // Semantically in the TU, lexically in extern "C": that gives C linkage.
  FD->setLexicalDeclContext(Linkage);
  Linkage->addDecl(FD);
  return FD;
}

/// The type of `this` in Context, looking through enclosing lambdas.
QualType thisTypeFor(ASTContext &Ctx, const DeclContext *Context, const FieldDecl *Field) {
  for (const DeclContext *DC = Context; DC; DC = DC->getParent())
    if (const auto *MD = dyn_cast<CXXMethodDecl>(DC))
      if (!MD->getParent()->isLambda())
        return MD->getThisType();
  return Ctx.getPointerType(Ctx.getRecordType(Field->getParent()));
}

Expr *buildRootRef(ASTContext &Ctx, const DeclContext *Context, const ParamBinding &B,
                   SourceLocation Loc);

/// The lvalue the binding names: the variable, `this->field`, or a member of
/// either (`p.x`, `p->n`).
Expr *buildBindingRef(ASTContext &Ctx, const DeclContext *Context, const ParamBinding &B,
                      SourceLocation Loc) {
  Expr *Ref = buildRootRef(Ctx, Context, B, Loc);
  for (const ParamBinding::MemberStep &Step : B.Members) {
    if (Step.IsArrow)
      Ref = ImplicitCastExpr::Create(Ctx, Ref->getType(), CK_LValueToRValue, Ref, nullptr,
                                     VK_PRValue, FPOptionsOverride());
    Ref = MemberExpr::CreateImplicit(Ctx, Ref, Step.IsArrow,
                                     const_cast<FieldDecl *>(Step.Field), Step.Type, VK_LValue,
                                     OK_Ordinary);
  }
  return Ref;
}

/// The variable, or `this->field`, a binding starts from.
Expr *buildRootRef(ASTContext &Ctx, const DeclContext *Context, const ParamBinding &B,
                   SourceLocation Loc) {
  auto *D = const_cast<ValueDecl *>(B.Decl);
  if (auto *Field = dyn_cast<FieldDecl>(D)) {
    auto *This = CXXThisExpr::Create(Ctx, Loc, thisTypeFor(Ctx, Context, Field),
                                     /*IsImplicit=*/true);
    QualType Ty = Field->getType().getNonReferenceType();
    QualType BaseTy = This->getType()->getPointeeType();
    if (!Field->isMutable())
      Ty = Ctx.getQualifiedType(Ty, BaseTy.getQualifiers());
    return MemberExpr::CreateImplicit(Ctx, This, /*IsArrow=*/true, Field, Ty, VK_LValue,
                                      OK_Ordinary);
  }
  return DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), D,
                             B.RefersToCapture, Loc, D->getType().getNonReferenceType(),
                             VK_LValue);
}

} // namespace

bool replaceNestWithLaunch(Sema &S, Decl *Root, ForStmt *Loop, const DeclContext *Context,
                           const std::string &Descriptor,
                           const std::vector<ParamBinding> &Args, std::string &Error) {
  ASTContext &Ctx = S.getASTContext();
  SourceLocation Loc = Loop->getForLoc();
  Stmt **Slot = findSlot(Root, Loop);
  if (!Slot) {
    Error = "cannot find the statement that holds the loop";
    return false;
  }

  SmallVector<Expr *, 8> CallArgs;
  QualType StrTy = Ctx.getStringLiteralArrayType(Ctx.CharTy, Descriptor.size());
  CallArgs.push_back(StringLiteral::Create(Ctx, Descriptor, StringLiteralKind::Ordinary,
                                           /*Pascal=*/false, StrTy, Loc));
  for (const ParamBinding &B : Args) {
    if (B.Kind == LaunchDescriptor::ArgKind::Scratch) {
      // A buffer the launcher allocates (ir::Param::Scratch): nullptr, which
      // the variadic call passes as a null void *.
      CallArgs.push_back(new (Ctx) CXXNullPtrLiteralExpr(Ctx.NullPtrTy, Loc));
      continue;
    }
    if (!B.Decl) {
      Error = "a kernel parameter has no declaration to pass";
      return false;
    }
    ExprResult Addr =
        S.BuildUnaryOp(nullptr, Loc, UO_AddrOf, buildBindingRef(Ctx, Context, B, Loc));
    if (Addr.isInvalid()) {
      Error = "cannot take the address of '" + B.Decl->getNameAsString() + "'";
      return false;
    }
    CallArgs.push_back(Addr.get());
  }

  FunctionDecl *Launcher = getOrDeclareLauncher(Ctx);
  Expr *Callee = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                                     Launcher, false, Loc, Launcher->getType(), VK_LValue);
  ExprResult Call = S.BuildCallExpr(nullptr, Callee, Loc, CallArgs, Loc);
  if (Call.isInvalid()) {
    Error = "cannot build the call to __sched_launch";
    return false;
  }
  ExprResult Failed = S.BuildUnaryOp(nullptr, Loc, UO_LNot, Call.get());
  if (Failed.isInvalid()) {
    Error = "cannot negate the result of __sched_launch";
    return false;
  }
  *Slot = IfStmt::Create(Ctx, Loc, IfStatementKind::Ordinary, /*Init=*/nullptr,
                         /*Var=*/nullptr, Failed.get(), Loc, Loc, Loop);
  return true;
}

} // namespace sched
