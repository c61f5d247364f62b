package dev.cairn.storage.visibility;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Public only so that Cairn's own storage and engine can reach it across packages: not part of
 * the API that plugins and the server use, and it may change without notice. Architecture tests
 * keep plugins and the server off everything marked so, as off every {@code internal} package.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.TYPE, ElementType.FIELD})
public @interface Internal {}
