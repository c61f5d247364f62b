package dev.cairn.api.web;

import java.lang.reflect.Type;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A JSON body that is the literal {@code null} is refused (400), where Spring would pass it on as
 * no body at all: the operations whose body is optional document an object, and sending none is how
 * a client leaves it out.
 */
@ControllerAdvice
class NullBodies extends RequestBodyAdviceAdapter {

    @Override
    public boolean supports(
            MethodParameter parameter, Type targetType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object afterBodyRead(
            Object body,
            HttpInputMessage input,
            MethodParameter parameter,
            Type targetType,
            Class<? extends HttpMessageConverter<?>> converterType) {
        if (body == null) {
            throw new InvalidInputException(
                    "the body is JSON null: send a JSON object, or no body where the operation's body is optional");
        }
        return body;
    }
}
