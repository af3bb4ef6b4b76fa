import { createTheme, type MantineColorsTuple } from '@mantine/core';

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
    FileInput: { defaultProps: { size: 'md' } },
  },
});
