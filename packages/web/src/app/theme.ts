import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { APP_LABELS } from './labels';

/**
 * Fleetdeck's brand: a deep "appliance" blue for actions on a cool grey canvas. Shade 8 is the
 * primary so that white text on filled buttons keeps WCAG AA contrast.
 *
 * Component defaults are given by name rather than with `Component.extend()`: importing the
 * components here would pull them into the entry chunk that every page loads first.
 */
const fleet: MantineColorsTuple = [
  '#e7f5fb',
  '#d4e9f3',
  '#a8d2e7',
  '#78b9db',
  '#52a4d1',
  '#3997cb',
  '#2a90c9',
  '#1a7db2',
  '#0b6b99',
  '#005d87',
];

const FONT_STACK =
  'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif';

export const theme = createTheme({
  primaryColor: 'fleet',
  primaryShade: 8,
  colors: { fleet },
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily: FONT_STACK,
  headings: { fontFamily: FONT_STACK, fontWeight: '650' },
  components: {
    // Icon-only "X" buttons get a name once here, for every dialog, toast and file input.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': APP_LABELS.close } } },
    // The dialog's header is not the page's banner landmark: a plain div, not <header>.
    ModalHeader: { defaultProps: { component: 'div' } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': APP_LABELS.close } } },
    Paper: { defaultProps: { radius: 'lg' } },
    // Every form control the same size, so controls in one row line up (label, box and text).
    // Compact filter and chart controls ask for 'sm' themselves, all of them alike.
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    NumberInput: { defaultProps: { size: 'md' } },
    Textarea: { defaultProps: { size: 'md' } },
    Select: { defaultProps: { size: 'md' } },
    MultiSelect: { defaultProps: { size: 'md' } },
    Autocomplete: { defaultProps: { size: 'md' } },
    TagsInput: { defaultProps: { size: 'md' } },
    NativeSelect: { defaultProps: { size: 'md' } },
    FileInput: {
      defaultProps: { size: 'md', clearButtonProps: { 'aria-label': APP_LABELS.clearFile } },
    },
  },
});

/**
 * Text colours darker than Mantine's defaults, for WCAG AA (4.5:1) on white and on the page's
 * gray.0 (#f8f9fa): dimmed text (gray.6 is 3.2:1 there), field errors and red menu items (red.6
 * is 3.3:1), placeholders (gray.5 is 2.1:1). The dimmed grey stays lighter than gray.7 so the
 * secondary text still reads as secondary.
 */
const DIMMED = '#666d75'; // 5.0:1 on gray.0, 5.2:1 on white
const PLACEHOLDER = '#6c757d'; // 4.7:1 on white (inputs are white)

/**
 * Text of "light" variants (badges, light buttons and alerts) for the palettes whose shade 9 on
 * shade 1 is under 4.5:1: shade 9 darkened by Mantine's `darken` until it passes (4.7–5.1:1).
 * `-text` (a Text's or Anchor's `c="teal"`) uses them too; on white its default, shade 8, fails.
 */
const DARK_TEXT: Record<string, string> = {
  red: '#bf2828',
  teal: '#077252',
  green: '#257535',
  lime: '#4a760a',
  yellow: '#a15300',
  orange: '#b83d0d',
};

/** Light scheme only (the app forces it); the dark values are Mantine's. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED,
    '--mantine-color-placeholder': PLACEHOLDER,
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(DARK_TEXT).flatMap(([name, color]) => [
        [`--mantine-color-${name}-light-color`, color],
        [`--mantine-color-${name}-text`, color],
      ]),
    ),
  },
  dark: {},
});
