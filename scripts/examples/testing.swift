// A test file of the app's own test target.
import Testing
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
