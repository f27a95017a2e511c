import { productName } from '../../config';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ContactSection } from './ContactSection';
import { DemoSection } from './DemoSection';
import { FeatureGrid } from './FeatureGrid';
import { Hero } from './Hero';
import { useAnalyticsScript } from './useAnalyticsScript';

const LANDING_TITLE = `${productName} - Mental Health Solutions for Universities`;

export function LandingScreen() {
  useDocumentTitle(LANDING_TITLE);
  useAnalyticsScript();
  return (
    <>
      <Hero />
      <FeatureGrid />
      <DemoSection />
      <ContactSection />
    </>
  );
}
