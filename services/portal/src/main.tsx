import "@mantine/core/styles.css";
import "@mantine/charts/styles.css";
import "./app.css";
import {
  Badge,
  Checkbox,
  createTheme,
  localStorageColorSchemeManager,
  MantineProvider,
  Switch,
  TableScrollContainer,
} from "@mantine/core";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App } from "./App";
import { SessionProvider } from "./session";

const theme = createTheme({
  primaryColor: "indigo",
  // Shade 8: white text on filled buttons meets WCAG AA contrast (shade 6 is 4.2:1).
  primaryShade: { light: 8, dark: 8 },
  // Filled badges and buttons of any color pick black or white text, whichever contrasts.
  autoContrast: true,
  components: {
    // Light badges: their text takes the AA-contrast colors app.css sets.
    // Never cut short in a narrow table column ("revoked", not "revo…").
    Badge: Badge.extend({ defaultProps: { variant: "light" }, styles: { root: { minWidth: "max-content" } } }),
    // Touch targets of at least 24×24 px (WCAG 2.5.8; Mantine's default boxes are 20 px).
    Checkbox: Checkbox.extend({ defaultProps: { size: "md" } }),
    Switch: Switch.extend({ defaultProps: { size: "md" } }),
    // A table wider than the window scrolls; keyboard users can focus and scroll it.
    TableScrollContainer: TableScrollContainer.extend({
      defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } },
    }),
  },
  // A focus ring on every keyboard focus (never on mouse clicks).
  focusRing: "auto",
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Liberation Sans', sans-serif",
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={localStorageColorSchemeManager({ key: "verdict-color-scheme" })}
    >
      <BrowserRouter>
        <SessionProvider>
          <App />
        </SessionProvider>
      </BrowserRouter>
    </MantineProvider>
  </StrictMode>,
);
