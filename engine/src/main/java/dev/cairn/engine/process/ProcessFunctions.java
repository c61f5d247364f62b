package dev.cairn.engine.process;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;

/** Process functions from the {@link Function}-annotated static methods of a class. */
public final class ProcessFunctions {

    /** The name of the single output of a method that returns one node. */
    public static final String RESULT = "result";

    private ProcessFunctions() {}

    /** One definition per annotated method, in the order of their entry points. */
    public static List<ProcessDefinition> of(Class<?> type) {
        List<ProcessDefinition> definitions = new ArrayList<>();
        Method[] methods = type.getDeclaredMethods();
        Arrays.sort(methods, Comparator.comparing(Method::getName));
        for (Method m : methods) {
            Function f = m.getAnnotation(Function.class);
            if (f != null) {
                definitions.add(define(m, f));
            }
        }
        return definitions;
    }

    private static ProcessDefinition define(Method method, Function f) {
        String where = method.getDeclaringClass().getSimpleName() + "." + method.getName();
        if (!Modifier.isStatic(method.getModifiers())) {
            throw new InvalidInputException(where + ": a @Function method must be static");
        }
        method.setAccessible(true);
        ProcessSpec.Builder spec = ProcessSpec.builder();
        Parameter[] params = method.getParameters();
        List<String> paths = new ArrayList<>();
        boolean takesScope = params.length > 0 && params[0].getType() == FunctionScope.class;
        if (takesScope && !f.workflow()) {
            throw new InvalidInputException(where + ": only a workfunction (workflow = true) takes a FunctionScope");
        }
        for (int i = takesScope ? 1 : 0; i < params.length; i++) {
            In in = params[i].getAnnotation(In.class);
            if (in == null || !Node.class.isAssignableFrom(params[i].getType())) {
                throw new InvalidInputException(
                        where + ": parameter " + i + " must be a node type annotated @In(\"name\")");
            }
            @SuppressWarnings("unchecked")
            Class<? extends Node> t = (Class<? extends Node>) params[i].getType();
            spec.input(port(in, t));
            paths.add(in.value());
        }
        Class<?> returns = method.getReturnType();
        boolean single = Data.class.isAssignableFrom(returns);
        if (single) {
            @SuppressWarnings("unchecked")
            Class<? extends Data> r = (Class<? extends Data>) returns;
            spec.output(OutputPort.required(RESULT, r));
        } else if (returns == Outputs.class) {
            spec.dynamicOutputs(Data.class);
        } else {
            throw new InvalidInputException(
                    where + ": a @Function method returns a Data node or Outputs, not " + returns.getSimpleName());
        }
        ProcessSpec built = spec.build();
        if (f.workflow()) {
            return new WorkFunction(f.value(), built, (inputs, scope) -> call(method, inputs, paths, scope, single));
        }
        return new CalcFunction(f.value(), built, inputs -> call(method, inputs, paths, null, single));
    }

    private static <T extends Node> InputPort<T> port(In in, Class<T> type) {
        InputPort<T> p = in.required() ? InputPort.required(in.value(), type) : InputPort.optional(in.value(), type);
        return in.help().isEmpty() ? p : p.withHelp(in.help());
    }

    private static Outputs call(
            Method method, ProcessInputs inputs, List<String> paths, FunctionScope scope, boolean single)
            throws Exception {
        List<Object> args = new ArrayList<>();
        if (scope != null && method.getParameterCount() > paths.size()) {
            args.add(scope);
        }
        for (String p : paths) {
            args.add(inputs.get(p));
        }
        Object result;
        try {
            result = method.invoke(null, args.toArray());
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw e;
        }
        if (single) {
            if (result == null) {
                return Outputs.create();
            }
            return Outputs.create().put(RESULT, (Data) result);
        }
        return result == null ? Outputs.create() : (Outputs) result;
    }
}
