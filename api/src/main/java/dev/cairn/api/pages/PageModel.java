package dev.cairn.api.pages;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;

import dev.cairn.api.security.CairnPrincipal;
import dev.cairn.api.security.PageSessions;
import dev.cairn.api.web.Problems;
import dev.cairn.storage.errors.CairnException;

/**
 * What every page shows besides its own content: who is signed in and whether the controls are
 * theirs to use (a control a person may not use is not offered); and the page a Cairn error becomes
 * (the API's answer is a problem detail, a page's is a page saying the same).
 */
@ControllerAdvice(basePackageClasses = PageModel.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class PageModel {

    private final PageSessions sessions;

    PageModel(PageSessions sessions) {
        this.sessions = sessions;
    }

    @ModelAttribute
    void common(Model model) {
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        if (who != null && who.getPrincipal() instanceof CairnPrincipal principal) {
            model.addAttribute("me", principal);
            model.addAttribute("mayControl", sessions.mayControl());
        }
    }

    @ExceptionHandler(CairnException.class)
    String problem(CairnException e, Model model, HttpServletResponse response) {
        common(model);
        Problems kind = Problems.of(e);
        response.setStatus(kind.status().value());
        model.addAttribute("title", kind.title());
        model.addAttribute("problem", e.getMessage());
        return "pages/problem";
    }
}
