//===- ModelParser.cpp - Parsing a model with its argument names ----------===//
//
// MLIR keeps no SSA names after parsing; the parser's AsmParserState (what
// the MLIR language server uses) remembers where each block argument was
// defined, and the source text there is its name.
//
//===----------------------------------------------------------------------===//

#include "tracec/AOT/ModelParser.h"
#include "tracec/Parser/ParserHazards.h"
#include "tracec/Pipelines/Lowering.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace tracec::aot;

/// The name defined at `range`: "%x" -> "x".
static std::string nameAt(llvm::SMRange range) {
  if (!range.isValid())
    return "";
  llvm::StringRef text(range.Start.getPointer(),
                       range.End.getPointer() - range.Start.getPointer());
  text.consume_front("%");
  return text.str();
}

OwningOpRef<ModuleOp> tracec::aot::parseModel(llvm::SourceMgr &sourceMgr,
                                              MLIRContext *context,
                                              ArgumentNames &names) {
  Block block;
  AsmParserState state;
  ParserConfig config(context);
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  Location fileLoc =
      FileLineColLoc::get(context, buffer->getBufferIdentifier(), 1, 1);
  if (failed(tracec::checkParserHazards(sourceMgr, context)) ||
      failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    return nullptr;
  OwningOpRef<ModuleOp> module =
      detail::constructContainerOpForParserIfNecessary<ModuleOp>(
          &block, context, fileLoc);
  if (!module)
    return nullptr;

  for (auto func : module->getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    const AsmParserState::BlockDefinition *def =
        state.getBlockDef(&func.front());
    std::vector<std::string> &argNames = names[func.getSymName()];
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      argNames.push_back(def && i < def->arguments.size()
                             ? nameAt(def->arguments[i].loc)
                             : std::string());
  }
  // Annotated with the shard dialect: each process's program, whose entry
  // points take and return the process's shards (the names stay).
  if (failed(tracec::partitionShards(*module)))
    return nullptr;
  return module;
}
