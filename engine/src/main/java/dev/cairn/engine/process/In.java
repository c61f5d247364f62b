package dev.cairn.engine.process;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Names a {@link Function} method's parameter as an input port. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface In {

    /** The port's path ("x", or "options.steps" in a namespace). */
    String value();

    /** False: the parameter is null when the input is not given. */
    boolean required() default true;

    /** The port's help text, shown with the process's inputs. */
    String help() default "";
}
