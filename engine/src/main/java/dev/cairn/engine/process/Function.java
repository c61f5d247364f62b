package dev.cairn.engine.process;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a static method as a process function, made into a {@link CalcFunction} or
 * {@link WorkFunction} by {@link ProcessFunctions#of(Class)}. Each parameter is an input
 * port named by its {@link In} annotation and typed by the parameter's type; a workfunction
 * may take a {@link FunctionScope} as its first parameter. The method returns one output
 * (port {@code result}, typed by the return type) or {@link Outputs}.
 * {@snippet :
 * @Function("arithmetic.add")
 * static IntData add(@In("x") IntData x, @In("y") IntData y) { ... }
 * }
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Function {

    /** The entry-point name. */
    String value();

    /** A workfunction (returns stored data, may run other functions) rather than a calcfunction. */
    boolean workflow() default false;
}
