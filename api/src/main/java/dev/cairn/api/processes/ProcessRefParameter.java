package dev.cairn.api.processes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;

/** The path's {@code ref} of an operation on one process, described for the API document. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Parameter(
        name = "ref",
        in = ParameterIn.PATH,
        description = "the process's uuid, a unique prefix of it, or its PK as pk:42",
        example = "0190c1a2")
@interface ProcessRefParameter {}
