package dev.cairn.api.pages;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.core.AuthenticationException;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.security.PageSessions;

/** Signing in with a token (the form, and what it posts) or, where one is configured, through the OIDC issuer. */
@Controller
class SignInController {

    private final PageSessions sessions;
    /** The OIDC issuer the page offers to sign in through, by name; null: none. */
    private final String issuer;

    SignInController(PageSessions sessions, CairnProperties properties) {
        this.sessions = sessions;
        CairnProperties.Oidc oidc = properties.security().oidc();
        this.issuer = oidc.signIn() ? oidc.name() : null;
    }

    @ModelAttribute("issuer")
    String issuer() {
        return issuer;
    }

    @GetMapping("/ui/sign-in")
    String form(
            @RequestParam(name = "signed-out", required = false) String signedOut,
            HttpServletRequest request,
            Model model) {
        HttpSession session = request.getSession(false);
        String ended = session == null ? null : (String) session.getAttribute(PageSessions.ENDED);
        if (ended != null) {
            session.removeAttribute(PageSessions.ENDED);
            model.addAttribute("error", ended);
        } else if (signedOut != null) {
            model.addAttribute("notice", "You are signed out.");
        }
        return "pages/sign-in";
    }

    @PostMapping("/ui/sign-in")
    String signIn(
            @RequestParam(name = "token", defaultValue = "") String token,
            HttpServletRequest request,
            HttpServletResponse response,
            Model model) {
        if (token.isBlank()) {
            return refused(
                    "Give a token: one that cairn token create printed, or the server's admin token.", response, model);
        }
        try {
            sessions.signIn(token, request);
        } catch (AuthenticationException e) {
            return refused("This token was refused: " + e.getMessage() + ".", response, model);
        }
        return "redirect:/ui";
    }

    private String refused(String why, HttpServletResponse response, Model model) {
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        model.addAttribute("error", why);
        return "pages/sign-in";
    }
}
