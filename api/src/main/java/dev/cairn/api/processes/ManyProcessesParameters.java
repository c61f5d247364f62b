package dev.cairn.api.processes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;

/** The query's {@code all} and {@code limit} of a pause, play or kill by a filter, described for the API document. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Parameter(name = "all", in = ParameterIn.QUERY, description = "true: an empty filter means every process")
@Parameter(
        name = "limit",
        in = ParameterIn.QUERY,
        description = "the most processes to act on, at most cairn.limits.batch-max (1000)")
@interface ManyProcessesParameters {}
