//===- Frontend.h - The C++ tracer ----------------------------------------===//
//
// Everything a host program needs to trace, differentiate, compile and run
// functions written against tracec::Value. See Trace.h for an example.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_FRONTEND_H
#define TRACEC_FRONTEND_FRONTEND_H

#include "tracec/Frontend/Call.h"
#include "tracec/Frontend/ControlFlow.h"
#include "tracec/Frontend/CustomGradients.h"
#include "tracec/Frontend/Gradients.h"
#include "tracec/Frontend/Ops.h"
#include "tracec/Frontend/State.h"
#include "tracec/Frontend/Trace.h"
#include "tracec/Frontend/TraceError.h"
#include "tracec/Frontend/Value.h"
#include "tracec/Frontend/Vmap.h"

#endif // TRACEC_FRONTEND_FRONTEND_H
