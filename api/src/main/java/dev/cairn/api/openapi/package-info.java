/**
 * The shared parts of the OpenAPI 3.1 document ({@code /v3/api-docs}, shown by Swagger UI at
 * {@code /swagger-ui.html}): its info block, the bearer security scheme on {@code /api/v1}, and the
 * problem-detail error responses every operation gets, so that each resource documents only its
 * successes and its own particular errors.
 */
package dev.cairn.api.openapi;
