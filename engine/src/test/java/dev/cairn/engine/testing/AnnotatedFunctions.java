package dev.cairn.engine.testing;

import dev.cairn.engine.process.Function;
import dev.cairn.engine.process.FunctionScope;
import dev.cairn.engine.process.In;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessFunctions;
import dev.cairn.storage.graph.IntData;

/** Process functions written as annotated methods. */
public final class AnnotatedFunctions {

    @Function("test.annotated.times")
    static IntData times(@In("x") IntData x, @In(value = "factor", required = false) IntData factor) {
        return new IntData(x.value() * (factor == null ? 2 : factor.value()));
    }

    @Function("test.annotated.split")
    static Outputs split(@In("x") IntData x) {
        return Outputs.create().put("half", new IntData(x.value() / 2)).put("rest", new IntData(x.value() % 2));
    }

    /** times(x) then times(that, 3), returning the last: a workfunction calling a calcfunction. */
    @Function(value = "test.annotated.times_twice", workflow = true)
    static IntData timesTwice(FunctionScope scope, @In("x") IntData x) {
        ProcessDefinition times = ProcessFunctions.of(AnnotatedFunctions.class).stream()
                .filter(d -> d.entryPoint().equals("test.annotated.times"))
                .findFirst()
                .orElseThrow();
        IntData once = (IntData)
                scope.run(times, Inputs.create().put("x", x)).outputs().get("result");
        return (IntData) scope.run(times, Inputs.create().put("x", once).put("factor", new IntData(3)))
                .outputs()
                .get("result");
    }

    private AnnotatedFunctions() {}
}
