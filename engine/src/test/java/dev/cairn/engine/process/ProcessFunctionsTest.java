package dev.cairn.engine.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.StrData;

class ProcessFunctionsTest {

    static final class Good {
        @Function("t.concat")
        static StrData concat(@In("a") StrData a, @In(value = "b", required = false, help = "second") StrData b) {
            return new StrData(a.value() + (b == null ? "" : b.value()));
        }

        static IntData notAFunction(IntData x) {
            return x;
        }
    }

    static final class NotStatic {
        @Function("t.bad")
        IntData bad(@In("x") IntData x) {
            return x;
        }
    }

    static final class Unnamed {
        @Function("t.bad")
        static IntData bad(IntData x) {
            return x;
        }
    }

    static final class ScopeInCalc {
        @Function("t.bad")
        static IntData bad(FunctionScope scope, @In("x") IntData x) {
            return x;
        }
    }

    @Test
    void aMethodBecomesASpecFromItsSignature() throws Exception {
        List<ProcessDefinition> defs = ProcessFunctions.of(Good.class);
        assertEquals(1, defs.size());
        CalcFunction f = (CalcFunction) defs.getFirst();
        assertEquals("t.concat", f.entryPoint());
        InputPort<?> b = (InputPort<?>) f.spec().inputs().ports().get("b");
        assertEquals(StrData.class, b.type());
        assertEquals("second", b.help());
        assertEquals(false, b.required());
        OutputPort<?> result = (OutputPort<?>) f.spec().outputs().ports().get("result");
        assertEquals(StrData.class, result.type());
        Outputs out = f.body().apply(new ProcessInputs(Map.of("a", new StrData("x"))));
        assertEquals("x", ((StrData) out.asMap().get("result")).value());
    }

    @Test
    void badMethodsAreRefusedSayingWhy() {
        assertTrue(assertThrows(InvalidInputException.class, () -> ProcessFunctions.of(NotStatic.class))
                .getMessage()
                .contains("must be static"));
        assertTrue(assertThrows(InvalidInputException.class, () -> ProcessFunctions.of(Unnamed.class))
                .getMessage()
                .contains("annotated @In"));
        assertTrue(assertThrows(InvalidInputException.class, () -> ProcessFunctions.of(ScopeInCalc.class))
                .getMessage()
                .contains("only a workfunction"));
    }
}
